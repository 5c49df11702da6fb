"""What was chosen before step 1 to list what a merchant will need (issue 41): the entity
type, the regulated sector and the products, as ``merchants.requirement_choice`` (JSON). The
steps' own drafts take over once they hold an entity type or products; the sector is only
here. And ``merchants.website_check`` (JSON): the last website check's result and date.

Added with ``op.add_column`` (no batch rebuild of ``merchants`` on SQLite, which would drop the
triggers of 0019 and 0020).

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("merchants", sa.Column("requirement_choice", sa.JSON(), nullable=False,
                                         server_default="{}"))
    op.add_column("merchants", sa.Column("website_check", sa.JSON(), nullable=False,
                                         server_default="{}"))


def downgrade() -> None:
    op.drop_column("merchants", "website_check")
    op.drop_column("merchants", "requirement_choice")
