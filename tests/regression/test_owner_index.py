"""The navigation's count on every page finds a user's merchants through the owner index on
SQLite even when most merchants have no owner and the statistics say so (ANALYZE, as the
bench and a long-running database have): without a partial index SQLite reads every merchant
(the list at 100,000 took 4x its time at 100)."""

from __future__ import annotations

from sqlalchemy import event, text

from bench.seed import seed_merchants
from portal.auth.accounts import find_user
from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.worklist.service import nav_counts


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
