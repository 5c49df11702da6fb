"""Refunds remember the four-eyes request they were approved under, so the refunds of a payment
sent without approval can be added up against FOUR_EYES_REFUND_ABOVE. Refunds already sent count
as sent without approval (the stricter reading).

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FOREIGN_KEY = "fk_payment_refunds_approval_request_id_approval_requests"


def upgrade() -> None:
    with op.batch_alter_table("payment_refunds") as batch:
        batch.add_column(sa.Column("approval_request_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(op.f(FOREIGN_KEY), "approval_requests",
                                 ["approval_request_id"], ["id"], ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("payment_refunds") as batch:
        batch.drop_constraint(op.f(FOREIGN_KEY), type_="foreignkey")
        batch.drop_column("approval_request_id")
