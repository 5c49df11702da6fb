"""Payment action ledger: the merchantTxnId and amount of the capture, reversal or refund in flight.

A capture or refund whose answer is lost is settled by a status read of its own merchantTxnId;
the portal keeps what it sent instead of relying on running totals in the gateway's status.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("payments") as batch:
        batch.add_column(sa.Column("action_txn_id", sa.String(length=50), nullable=True))
        batch.add_column(sa.Column("action_amount", sa.String(length=24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("payments") as batch:
        batch.drop_column("action_amount")
        batch.drop_column("action_txn_id")
