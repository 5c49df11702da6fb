"""One new hold per payment: ``payments.replaces_payment_id`` becomes unique, so a hold held
again (or an unpaid payment's new link) is never made twice, however many press at once.

Revision ID: 0045
Revises: 0042
Create Date: 2026-12-02
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0045"
down_revision: str | None = "0042"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_payments_replaces_payment_id", table_name="payments")
    op.create_index("ix_payments_replaces_payment_id", "payments", ["replaces_payment_id"],
                    unique=True)


def downgrade() -> None:
    op.drop_index("ix_payments_replaces_payment_id", table_name="payments")
    op.create_index("ix_payments_replaces_payment_id", "payments", ["replaces_payment_id"])
