"""The counts of merchants per status are kept by the database: triggers on ``merchants`` move
``merchant_status_counts`` in the same transaction as every insert, delete and change of status,
whatever writes it (the portal, a script, a restore), instead of each portal path remembering
to. The counts are taken again from the merchants, so any drift before this is gone.

Each change moves its rows in a fixed order (the status's name), so two concurrent changes of
the same statuses never wait on each other in opposite orders. A later batch migration that
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
#: The key of merchants without a status yet (``portal.models.status_count.NO_STATUS``).
NO_STATUS = "''"
COUNT_AGAIN = ("INSERT INTO merchant_status_counts (status, merchants) "
               f"SELECT coalesce(status, {NO_STATUS}), count(*) FROM merchants "
               f"GROUP BY coalesce(status, {NO_STATUS})")
#: Add ``delta`` to the count of ``key`` (SQL expressions), creating its row if need be.
MOVE = ("INSERT INTO merchant_status_counts (status, merchants) VALUES ({key}, {delta}) "
        "ON CONFLICT (status) DO UPDATE SET merchants = merchant_status_counts.merchants "
        "+ excluded.merchants;")

POSTGRES_FUNCTION = f"""
CREATE FUNCTION {TRIGGER}_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_key text := CASE WHEN TG_OP <> 'INSERT' THEN coalesce(OLD.status, {NO_STATUS}) END;
  new_key text := CASE WHEN TG_OP <> 'DELETE' THEN coalesce(NEW.status, {NO_STATUS}) END;
BEGIN
  IF old_key IS NOT DISTINCT FROM new_key THEN
    RETURN NULL;
  END IF;
  INSERT INTO merchant_status_counts (status, merchants)
  SELECT key, delta FROM (VALUES (old_key, -1), (new_key, 1)) AS moved (key, delta)
  WHERE key IS NOT NULL ORDER BY key
  ON CONFLICT (status) DO UPDATE
    SET merchants = merchant_status_counts.merchants + excluded.merchants;
  RETURN NULL;
END $$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(POSTGRES_FUNCTION)
        op.execute(f"CREATE TRIGGER {TRIGGER}_keep AFTER INSERT OR DELETE OR UPDATE OF status "
                   f"ON merchants FOR EACH ROW EXECUTE FUNCTION {TRIGGER}_keep()")
    else:
        create_sqlite_triggers()
    op.execute("DELETE FROM merchant_status_counts")
    op.execute(COUNT_AGAIN)


def create_sqlite_triggers() -> None:
    """SQLite's triggers: one per kind of change; a change of status moves the old status's
    count and the new one's in the order of their names."""
    old, new = f"coalesce(old.status, {NO_STATUS})", f"coalesce(new.status, {NO_STATUS})"
    op.execute(f"CREATE TRIGGER {TRIGGER}_insert AFTER INSERT ON merchants "
               f"BEGIN {MOVE.format(key=new, delta=1)} END")
    op.execute(f"CREATE TRIGGER {TRIGGER}_delete AFTER DELETE ON merchants "
               f"BEGIN {MOVE.format(key=old, delta=-1)} END")
    for name, order, first, second in (("up", "<", (old, -1), (new, 1)),
                                       ("down", ">", (new, 1), (old, -1))):
        op.execute(f"CREATE TRIGGER {TRIGGER}_update_{name} AFTER UPDATE OF status ON merchants "
                   f"WHEN {old} {order} {new} BEGIN "
                   f"{MOVE.format(key=first[0], delta=first[1])} "
                   f"{MOVE.format(key=second[0], delta=second[1])} END")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_keep ON merchants")
        op.execute(f"DROP FUNCTION IF EXISTS {TRIGGER}_keep()")
    else:
        for name in ("insert", "delete", "update_up", "update_down"):
            op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_{name}")
