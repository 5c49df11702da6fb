"""Payment status polling: the gateway's own status word, when the hold was authorised, when the
worker reads each payment's status next, and the gateway's id of each refund.

A payment whose outcome is not final (waiting for the customer, authorised and not captured, a
call whose answer was lost) is read again by the worker; one read again and again unchanged
waits longer each time. Payments already there are due at once if they are not final, and an
authorised hold counts its expiry from its creation (the earliest it can have been authorised).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Statuses a payment can still leave without an action of ours (portal.domain.payments.polling).
NOT_FINAL = "('PENDING', 'CREATED', 'INPROGRESS', 'AUTHORIZED')"


def upgrade() -> None:
    with op.batch_alter_table("payments") as batch:
        batch.add_column(sa.Column("gateway_status", sa.String(length=64), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("authorized_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("next_poll_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("unchanged_polls", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.create_index("ix_payments_next_poll_at", ["next_poll_at"])
    with op.batch_alter_table("payment_refunds") as batch:
        batch.add_column(sa.Column("refund_id", sa.String(length=64), nullable=True))
    op.execute("UPDATE payments SET gateway_status = status WHERE status <> 'PENDING'")
    op.execute("UPDATE payments SET authorized_at = created_at WHERE status = 'AUTHORIZED'")
    op.execute("UPDATE payments SET next_poll_at = CURRENT_TIMESTAMP "
               f"WHERE status IN {NOT_FINAL} OR action_state <> 'idle'")


def downgrade() -> None:
    with op.batch_alter_table("payment_refunds") as batch:
        batch.drop_column("refund_id")
    with op.batch_alter_table("payments") as batch:
        batch.drop_index("ix_payments_next_poll_at")
        batch.drop_column("unchanged_polls")
        batch.drop_column("next_poll_at")
        batch.drop_column("authorized_at")
        batch.drop_column("gateway_status")
