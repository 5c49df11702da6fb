"""The sandbox scenario chosen for a merchant ("Fill every step"), kept until it is changed, so
each step's page offers the same one instead of starting again at the happy path.

A column added and dropped in place (SQLite 3.35+ drops a column without rebuilding the
table), never a batch rebuild of ``merchants``, so the status-count triggers of 0020 stay.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("merchants", sa.Column("sandbox_scenario", sa.String(32), nullable=True))


def downgrade() -> None:
    op.drop_column("merchants", "sandbox_scenario")
