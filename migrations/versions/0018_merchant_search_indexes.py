"""Merchant list at scale: a (status, last activity) index for the dashboard's counts, and on
PostgreSQL trigram (pg_trgm) indexes for the list's "contains" search.

Revision ID: 0018
Revises: 0016
Create Date: 2026-11-23
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEARCHED_TEXT = ("display_name", "legal_name", "external_onboarding_id", "onboarding_id")


def upgrade() -> None:
    with op.batch_alter_table("merchants") as batch:
        batch.drop_index("ix_merchants_status")
        batch.create_index("ix_merchants_status_last_activity_at", ["status", "last_activity_at"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name in SEARCHED_TEXT:
            op.create_index(f"ix_merchants_{name}_trgm", "merchants", [name],
                            postgresql_using="gin", postgresql_ops={name: "gin_trgm_ops"})


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in SEARCHED_TEXT:
            op.drop_index(f"ix_merchants_{name}_trgm", table_name="merchants")
    with op.batch_alter_table("merchants") as batch:
        batch.drop_index("ix_merchants_status_last_activity_at")
        batch.create_index("ix_merchants_status", ["status"])
