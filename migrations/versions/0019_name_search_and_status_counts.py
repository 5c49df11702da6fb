"""Merchant list at scale, continued: on SQLite an FTS5 trigram table over the searched names
and ids (the list's "contains" search; PostgreSQL has the pg_trgm indexes of 0018), and on both
a count of merchants per status that the status changes keep, for the admin dashboard.

The trigram table (``merchant_search``) holds no text of its own: it indexes the merchants
table's columns (external content) and triggers on ``merchants`` keep it in step. A later batch
migration that rebuilds ``merchants`` on SQLite drops those triggers with the old table: it must
create them again (``create_search_triggers``) and rebuild the index.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26
"""
import sqlite3
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEARCH_TABLE = "merchant_search"
SEARCHED = ("display_name", "legal_name", "external_onboarding_id", "onboarding_id")
#: The trigram tokenizer arrived in SQLite 3.34; an older SQLite keeps the LIKE search.
HAS_TRIGRAM = sqlite3.sqlite_version_info >= (3, 34)


def upgrade() -> None:
    op.create_table(
        "merchant_status_counts",
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("merchants", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("status", name=op.f("pk_merchant_status_counts")),
    )
    op.execute("INSERT INTO merchant_status_counts (status, merchants) "
               "SELECT coalesce(status, ''), count(*) FROM merchants "
               "GROUP BY coalesce(status, '')")
    if op.get_bind().dialect.name == "sqlite" and HAS_TRIGRAM:
        columns = ", ".join(SEARCHED)
        op.execute(f"CREATE VIRTUAL TABLE {SEARCH_TABLE} USING fts5({columns}, "
                   "content='merchants', content_rowid='id', tokenize='trigram')")
        create_search_triggers()
        op.execute(f"INSERT INTO {SEARCH_TABLE} ({SEARCH_TABLE}) VALUES ('rebuild')")


def create_search_triggers() -> None:
    """The triggers that keep ``merchant_search`` in step with every insert, update and delete
    of a merchant (an external-content table is told the old values to remove)."""
    columns = ", ".join(SEARCHED)
    new = ", ".join(f"new.{name}" for name in SEARCHED)
    old = ", ".join(f"old.{name}" for name in SEARCHED)
    add = f"INSERT INTO {SEARCH_TABLE} (rowid, {columns}) VALUES (new.id, {new});"
    remove = (f"INSERT INTO {SEARCH_TABLE} ({SEARCH_TABLE}, rowid, {columns}) "
              f"VALUES ('delete', old.id, {old});")
    op.execute(f"CREATE TRIGGER {SEARCH_TABLE}_insert AFTER INSERT ON merchants BEGIN {add} END")
    op.execute(f"CREATE TRIGGER {SEARCH_TABLE}_delete AFTER DELETE ON merchants "
               f"BEGIN {remove} END")
    op.execute(f"CREATE TRIGGER {SEARCH_TABLE}_update AFTER UPDATE OF {columns} ON merchants "
               f"BEGIN {remove} {add} END")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for trigger in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS {SEARCH_TABLE}_{trigger}")
        op.execute(f"DROP TABLE IF EXISTS {SEARCH_TABLE}")
    op.drop_table("merchant_status_counts")
