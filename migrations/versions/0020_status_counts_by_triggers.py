"""The counts of merchants per status are kept by the database: triggers on ``merchants`` move
``merchant_status_counts`` in the same transaction as every insert, delete and change of status,
whatever writes it (the portal, a script, a restore), instead of each portal path remembering
to. The counts are taken again from the merchants, so any drift before this is gone.

On PostgreSQL each change moves its rows in a fixed order (the status's name), so two
concurrent changes of the same statuses never wait on each other in opposite orders (SQLite has
one writer at a time, so its triggers need no order). A later batch migration that
rebuilds ``merchants`` on SQLite drops these triggers with the old table: it must create them
again (``create_sqlite_triggers``) and count again (``COUNT_AGAIN``).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-26
"""
from collections.abc import Sequence

from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TRIGGER = "merchant_status_counts"
#: The key of merchants without a status yet (``portal.core.models.status_count.NO_STATUS``).
NO_STATUS = "''"
COUNT_AGAIN = ("INSERT INTO merchant_status_counts (status, merchants) "
               f"SELECT coalesce(status, {NO_STATUS}), count(*) FROM merchants "
               f"GROUP BY coalesce(status, {NO_STATUS})")
#: Add ``delta`` to the count of ``key`` (SQL expressions), creating its row if need be.
MOVE = ("INSERT INTO merchant_status_counts (status, merchants) VALUES ({key}, {delta}) "
        "ON CONFLICT (status) DO UPDATE SET merchants = merchant_status_counts.merchants "
        "+ excluded.merchants;")

#: Rows inserted or deleted by one statement move the counts once, by their sums (a bulk insert
#: of 100,000 merchants is a hundred moves, not 100,000 updates of the same row).
POSTGRES_STATEMENT_FUNCTION = f"""
CREATE FUNCTION {TRIGGER}_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO merchant_status_counts (status, merchants)
    SELECT coalesce(status, {NO_STATUS}), count(*) FROM new_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (status) DO UPDATE
      SET merchants = merchant_status_counts.merchants + excluded.merchants;
  ELSE
    INSERT INTO merchant_status_counts (status, merchants)
    SELECT coalesce(status, {NO_STATUS}), -count(*) FROM old_rows GROUP BY 1 ORDER BY 1
    ON CONFLICT (status) DO UPDATE
      SET merchants = merchant_status_counts.merchants + excluded.merchants;
  END IF;
  RETURN NULL;
END $$
"""
#: A change of status moves the old status's count and the new one's, in the order of names.
POSTGRES_ROW_FUNCTION = f"""
CREATE FUNCTION {TRIGGER}_status() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_key text := coalesce(OLD.status, {NO_STATUS});
  new_key text := coalesce(NEW.status, {NO_STATUS});
BEGIN
  IF old_key <> new_key THEN
    INSERT INTO merchant_status_counts (status, merchants)
    SELECT key, delta FROM (VALUES (old_key, -1), (new_key, 1)) AS moved (key, delta)
    ORDER BY key
    ON CONFLICT (status) DO UPDATE
      SET merchants = merchant_status_counts.merchants + excluded.merchants;
  END IF;
  RETURN NULL;
END $$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        create_postgres_triggers()
    else:
        create_sqlite_triggers()
    op.execute("DELETE FROM merchant_status_counts")
    op.execute(COUNT_AGAIN)


def create_postgres_triggers() -> None:
    """PostgreSQL's: inserts and deletes per statement (their transition tables summed), a
    change of status per row (the portal changes one merchant at a time)."""
    op.execute(POSTGRES_STATEMENT_FUNCTION)
    op.execute(POSTGRES_ROW_FUNCTION)
    for event, rows in (("INSERT", "NEW TABLE AS new_rows"), ("DELETE", "OLD TABLE AS old_rows")):
        op.execute(f"CREATE TRIGGER {TRIGGER}_{event.lower()} AFTER {event} ON merchants "
                   f"REFERENCING {rows} FOR EACH STATEMENT EXECUTE FUNCTION {TRIGGER}_rows()")
    op.execute(f"CREATE TRIGGER {TRIGGER}_update AFTER UPDATE OF status ON merchants "
               f"FOR EACH ROW EXECUTE FUNCTION {TRIGGER}_status()")


def create_sqlite_triggers() -> None:
    """SQLite's triggers: one per kind of change; a change of status moves the old status's
    count down and the new one's up."""
    old, new = f"coalesce(old.status, {NO_STATUS})", f"coalesce(new.status, {NO_STATUS})"
    op.execute(f"CREATE TRIGGER {TRIGGER}_insert AFTER INSERT ON merchants "
               f"BEGIN {MOVE.format(key=new, delta=1)} END")
    op.execute(f"CREATE TRIGGER {TRIGGER}_delete AFTER DELETE ON merchants "
               f"BEGIN {MOVE.format(key=old, delta=-1)} END")
    op.execute(f"CREATE TRIGGER {TRIGGER}_update AFTER UPDATE OF status ON merchants "
               f"WHEN {old} <> {new} BEGIN {MOVE.format(key=old, delta=-1)} "
               f"{MOVE.format(key=new, delta=1)} END")


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for event in ("insert", "delete", "update"):
        op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_{event}" + (" ON merchants" if postgres else ""))
    if postgres:
        op.execute(f"DROP FUNCTION IF EXISTS {TRIGGER}_rows()")
        op.execute(f"DROP FUNCTION IF EXISTS {TRIGGER}_status()")
