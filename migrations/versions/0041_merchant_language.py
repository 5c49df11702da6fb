"""The language of a merchant's pages and emails (issue 39.2): ``merchants.language``, the
default ops choose for the merchant (English unless they choose otherwise);
``merchant_links.language``, what the merchant picked on the page a link opens (None: not
picked); ``payment_links.language``, what the customer picked on a payment link's page.

Added with ``op.add_column`` (no batch rebuild of ``merchants`` on SQLite, which would drop the
triggers of 0019 and 0020).

Revision ID: 0041
Revises: 0039
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0041"
down_revision: str | None = "0039"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("merchants", sa.Column("language", sa.String(8), nullable=False,
                                         server_default="en"))
    op.add_column("merchant_links", sa.Column("language", sa.String(8), nullable=True))
    op.add_column("payment_links", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("payment_links", "language")
    op.drop_column("merchant_links", "language")
    op.drop_column("merchants", "language")
