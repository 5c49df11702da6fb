"""What the gateway's review asks for, kept as sent (contract revision 4, "RFI details"):
``merchants.rfi_details``, the status answer's ``rfiDetails`` encrypted like the outstanding
documents (it may name owners and their PANs), and ``rfi_details_cut``, set when it was larger
than the portal keeps and only its beginning is kept.

Columns are added with ``op.add_column`` (no batch rebuild of ``merchants`` on SQLite, which
would drop the triggers of 0019 and 0020).

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("merchants", sa.Column("rfi_details", sa.Text(), nullable=True))
    op.add_column("merchants", sa.Column("rfi_details_cut", sa.Boolean(), nullable=False,
                                         server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("merchants", "rfi_details_cut")
    op.drop_column("merchants", "rfi_details")
