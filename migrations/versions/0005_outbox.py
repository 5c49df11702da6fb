"""Outbox: step sends queued while the gateway was unavailable, drained by the sync.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("merchant_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.String(length=32), nullable=False),
        sa.Column("draft_version", sa.Integer(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["merchant_id"], ["merchants.id"], ondelete="CASCADE",
                                name=op.f("fk_outbox_items_merchant_id_merchants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox_items")),
    )
    with op.batch_alter_table("outbox_items") as batch_op:
        batch_op.create_index(batch_op.f("ix_outbox_items_merchant_id"), ["merchant_id"])
        batch_op.create_index("ix_outbox_items_state_next_attempt_at",
                              ["state", "next_attempt_at"])


def downgrade() -> None:
    with op.batch_alter_table("outbox_items") as batch_op:
        batch_op.drop_index("ix_outbox_items_state_next_attempt_at")
        batch_op.drop_index("ix_outbox_items_merchant_id")
    op.drop_table("outbox_items")
