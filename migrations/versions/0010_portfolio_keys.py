"""Portfolio keys: one partner-level parent MID key pair that signs for sub-merchants; a
merchant's credentials hold either its own key or a reference to the portfolio key.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OWN_KEY_OR_PORTFOLIO = (
    "(portfolio_key_id IS NULL AND kid IS NOT NULL AND public_key_pem IS NOT NULL"
    " AND private_key_encrypted IS NOT NULL AND origin IS NOT NULL)"
    " OR (portfolio_key_id IS NOT NULL AND kid IS NULL AND public_key_pem IS NULL"
    " AND private_key_encrypted IS NULL AND origin IS NULL)"
)
_OWN_KEY_COLUMNS = (("kid", sa.String(length=128)), ("public_key_pem", sa.Text()),
                    ("private_key_encrypted", sa.Text()), ("origin", sa.String(length=16)))


def upgrade() -> None:
    op.create_table(
        "portfolio_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("parent_mid", sa.String(length=64), nullable=False),
        sa.Column("kid", sa.String(length=128), nullable=False),
        sa.Column("public_key_pem", sa.Text(), nullable=False),
        sa.Column("private_key_encrypted", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["created_by_id"], ["users.id"], ondelete="SET NULL",
                                name=op.f("fk_portfolio_keys_created_by_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_portfolio_keys")),
    )
    with op.batch_alter_table("payment_credentials") as batch:
        batch.add_column(sa.Column("portfolio_key_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_payment_credentials_portfolio_key_id"),
                           ["portfolio_key_id"])
        batch.create_foreign_key(
            batch.f("fk_payment_credentials_portfolio_key_id_portfolio_keys"), "portfolio_keys",
            ["portfolio_key_id"], ["id"], ondelete="RESTRICT")
        for name, kind in _OWN_KEY_COLUMNS:
            batch.alter_column(name, existing_type=kind, nullable=True)
        batch.create_check_constraint(batch.f("ck_payment_credentials_own_key_or_portfolio"),
                                      OWN_KEY_OR_PORTFOLIO)


def downgrade() -> None:
    op.execute("DELETE FROM payment_credentials WHERE portfolio_key_id IS NOT NULL")
    with op.batch_alter_table("payment_credentials") as batch:
        batch.drop_constraint(batch.f("ck_payment_credentials_own_key_or_portfolio"),
                              type_="check")
        for name, kind in _OWN_KEY_COLUMNS:
            batch.alter_column(name, existing_type=kind, nullable=False)
        batch.drop_constraint(batch.f("fk_payment_credentials_portfolio_key_id_portfolio_keys"),
                              type_="foreignkey")
        batch.drop_index(batch.f("ix_payment_credentials_portfolio_key_id"))
        batch.drop_column("portfolio_key_id")
    op.drop_table("portfolio_keys")
