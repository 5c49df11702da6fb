"""The navigation's count on every page finds a user's merchants through the owner index on
SQLite even when most merchants have no owner and the statistics say so (ANALYZE, as the
bench and a long-running database have): without a partial index SQLite reads every merchant
(the list at 100,000 took 4x its time at 100); and a user who owns nothing reads no payment."""

from __future__ import annotations

from sqlalchemy import event, text

from bench.seed import seed_merchants
from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.domain.users.accounts import find_user
from portal.domain.worklist.service import nav_counts
from tests.support.team import make_merchant
from tests.worklist.support import add, hold


def test_the_navigation_count_searches_the_owner_index_after_analyze(app, auth):
    email = auth.create("ops")
    seed_merchants(app, 2000)
    with app.app_context():
        db.session.execute(text("ANALYZE"))
        db.session.commit()
        seen: list[tuple[str, object]] = []
        engine = db.session.get_bind()

        def record(_conn, _cursor, statement, parameters, *_rest) -> None:
            seen.append((statement, parameters))

        event.listen(engine, "before_cursor_execute", record)
        try:
            nav_counts(find_user(email), current_settings(), clock.utcnow())
        finally:
            event.remove(engine, "before_cursor_execute", record)
        statement, parameters = seen[-1]
        plan = [row[-1] for row in db.session.connection().exec_driver_sql(
            "EXPLAIN QUERY PLAN " + statement, parameters)]
    assert "SEARCH merchants USING INDEX ix_merchants_owner_id (owner_id=?) LEFT-JOIN" in plan
    assert not any(step.startswith("SCAN merchants") for step in plan)


def reads(app, email: str) -> int:
    """SQLite's virtual machine steps (in hundreds) of the navigation's counts for ``email``."""
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0

    with app.app_context():
        connection = db.session.connection().connection.driver_connection
        connection.set_progress_handler(tick, 100)
        try:
            nav_counts(find_user(email), current_settings(), clock.utcnow())
        finally:
            connection.set_progress_handler(None, 100)
    return steps[0]


def test_a_user_who_owns_nothing_reads_no_payment(app, auth):
    """The empty row of a user who owns no merchant once ran the holds' sub-selects for a NULL
    merchant id: a search of every old hold on each page (the payments list at 100,000 took
    1.6x its time at 100)."""
    email = auth.create("ops")
    merchant = make_merchant(app, "Paid", status="APPROVED")
    add(app, *(hold(merchant, authorized_hours_ago=150, n=n) for n in range(10)))
    before = reads(app, email)
    add(app, *(hold(merchant, authorized_hours_ago=150, n=n) for n in range(10, 3000)))
    assert reads(app, email) == before
