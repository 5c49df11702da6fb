"""Asking an admin to set up payments (issue 36.3): ``payment_setup_requests``, one row per
request an ops user made from a merchant's credentials page, closed when an admin saves the
credentials; a partial unique index keeps at most one open per merchant.

Revision ID: 0043
Revises: 0045
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0043"
down_revision: str | None = "0045"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("closed_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "payment_setup_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("asked_by_id", sa.Integer(), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_payment_setup_requests_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["asked_by_id"], ["users.id"],
                                name=op.f("fk_payment_setup_requests_asked_by_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["closed_by_id"], ["users.id"],
                                name=op.f("fk_payment_setup_requests_closed_by_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_setup_requests")),
    )
    op.create_index(op.f("ix_payment_setup_requests_merchant_id"), "payment_setup_requests",
                    ["merchant_id"])
    op.create_index("uq_payment_setup_requests_open", "payment_setup_requests", ["merchant_id"],
                    unique=True, sqlite_where=OPEN, postgresql_where=OPEN)


def downgrade() -> None:
    op.drop_index("uq_payment_setup_requests_open", table_name="payment_setup_requests")
    op.drop_index(op.f("ix_payment_setup_requests_merchant_id"),
                  table_name="payment_setup_requests")
    op.drop_table("payment_setup_requests")
