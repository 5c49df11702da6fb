"""Four-eyes approval requests: large refunds and key changes waiting for a second admin.

Revision ID: 0015
Revises: 0013
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLE = "approval_requests"


def upgrade() -> None:
    op.create_table(
        _TABLE,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("summary", sa.String(length=300), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=True),
        sa.Column("payment_id", sa.Integer(), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("requested_by_id", sa.Integer(), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by_id", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decision_reason", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(length=500), nullable=False),
        sa.CheckConstraint("state IN ('pending', 'running', 'done', 'failed', 'unknown', "
                           "'rejected', 'expired')", name=op.f("ck_approval_requests_state")),
        sa.CheckConstraint("kind IN ('refund', 'merchant_key', 'portfolio_key')",
                           name=op.f("ck_approval_requests_kind")),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"],
                                name=op.f("fk_approval_requests_merchant_id_merchants"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["payment_id"], ["payments.id"],
                                name=op.f("fk_approval_requests_payment_id_payments"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["requested_by_id"], ["users.id"],
                                name=op.f("fk_approval_requests_requested_by_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["decided_by_id"], ["users.id"],
                                name=op.f("fk_approval_requests_decided_by_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_approval_requests")),
    )
    for column in ("state", "merchant_id", "payment_id", "expires_at"):
        op.create_index(op.f(f"ix_approval_requests_{column}"), _TABLE, [column])


def downgrade() -> None:
    for column in ("expires_at", "payment_id", "merchant_id", "state"):
        op.drop_index(op.f(f"ix_approval_requests_{column}"), table_name=_TABLE)
    op.drop_table(_TABLE)
