"""Migration 0031 (file 0027): merchants rejected before owners existed count as told, so no
worklist fills up with old rejections; others keep no such time; and it goes back."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect, text

from portal.core.db import make_engine
from portal.core.migrate import alembic_config, upgrade
from tests.support.rows import MERCHANT_SQL


def test_old_rejections_count_as_told_and_the_revision_goes_back(any_database_url):
    upgrade(any_database_url, "0026")
    engine = make_engine(any_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(MERCHANT_SQL, [{"ext": "old", "name": "Old No", "status": "REJECTED"},
                                        {"ext": "rfi", "name": "Asked", "status": "RFI"}])
        upgrade(any_database_url)
        with engine.connect() as conn:
            told = {key: bool(value) for key, value in conn.execute(text(
                "SELECT external_onboarding_id, rejection_told_at IS NOT NULL FROM merchants"))}
        assert told == {"old": True, "rfi": False}
        command.downgrade(alembic_config(any_database_url), "0026")
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("merchants")}
            tables = set(inspect(conn).get_table_names())
        assert not {"owner_id", "rejection_told_at"} & columns
        assert not {"notices", "merchant_notes"} & tables
        upgrade(any_database_url)
    finally:
        engine.dispose()
