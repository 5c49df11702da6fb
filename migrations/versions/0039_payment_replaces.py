"""A declined payment's new link: ``payments.replaces_payment_id`` names the payment it was sent
for (same customer and amount), so both payments' pages link to each other.

Revision ID: 0039
Revises: 0040
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0039"
down_revision: str | None = "0040"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("payments", sa.Column("replaces_payment_id", sa.Integer(), nullable=True))
    op.create_index("ix_payments_replaces_payment_id", "payments", ["replaces_payment_id"])


def downgrade() -> None:
    op.drop_index("ix_payments_replaces_payment_id", table_name="payments")
    op.drop_column("payments", "replaces_payment_id")
