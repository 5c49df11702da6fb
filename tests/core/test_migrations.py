"""The Alembic migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from portal.core.db import Base, make_engine
from portal.core.migrate import alembic_config, include_object, upgrade
from portal.core.models.merchant_search import SQLITE_HAS_TRIGRAM
from tests.support.revisions import revision_named
from tests.support.rows import MERCHANT_SQL


def test_migrated_schema_matches_the_models(any_database_url):
    upgrade(any_database_url)
    engine = make_engine(any_database_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={
                "compare_type": True, "include_object": include_object})
            differences = compare_metadata(context, Base.metadata)
            tables = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert differences == []
    assert set(Base.metadata.tables) <= tables


def test_migrations_run_twice_without_change(any_database_url):
    upgrade(any_database_url)
    upgrade(any_database_url)
    engine = make_engine(any_database_url)
    try:
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() is not None or \
                not Base.metadata.tables
    finally:
        engine.dispose()


def test_0019_counts_and_indexes_the_merchants_already_there_and_goes_back(any_database_url):
    upgrade(any_database_url, "0018")
    engine = make_engine(any_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                MERCHANT_SQL,
                [{"ext": f"ext-{n}", "name": name, "status": status} for n, (name, status) in
                 enumerate([("Lakshmi Sweets", "IN_PROGRESS"), ("Ganga Textiles", None),
                            ("Lotus Sweets & Sons", "IN_PROGRESS"), ("Apollo Tyres", "APPROVED")])])
        upgrade(any_database_url)
        with engine.connect() as conn:
            assert dict(conn.execute(text(
                "SELECT status, merchants FROM merchant_status_counts")).all()) == {
                "IN_PROGRESS": 2, "": 1, "APPROVED": 1}
            if conn.dialect.name == "sqlite" and SQLITE_HAS_TRIGRAM:
                assert sorted(conn.execute(text(
                    "SELECT display_name FROM merchants WHERE id IN (SELECT rowid FROM "
                    "merchant_search WHERE merchant_search MATCH '\"sweets\"')")).scalars()) == [
                    "Lakshmi Sweets", "Lotus Sweets & Sons"]
        command.downgrade(alembic_config(any_database_url), "0018")
        with engine.connect() as conn:
            left = set(inspect(conn).get_table_names())
        assert "merchant_status_counts" not in left
        assert not any(name.startswith("merchant_search") for name in left)
        upgrade(any_database_url)
    finally:
        engine.dispose()


def test_0020_counts_again_keeps_counting_and_goes_back(any_database_url):
    upgrade(any_database_url, "0019")
    engine = make_engine(any_database_url)
    counts = text("SELECT status, merchants FROM merchant_status_counts WHERE merchants <> 0")
    try:
        with engine.begin() as conn:  # written beside the 0019 portal: the counts drift
            conn.execute(MERCHANT_SQL, [{"ext": "a", "name": "Drift Traders", "status": "APPROVED"},
                                        {"ext": "b", "name": "Drift Traders", "status": None}])
        with engine.connect() as conn:
            assert dict(conn.execute(counts).all()) == {}
        upgrade(any_database_url)
        with engine.begin() as conn:
            assert dict(conn.execute(counts).all()) == {"APPROVED": 1, "": 1}
            conn.execute(MERCHANT_SQL, {"ext": "c", "name": "Drift Traders", "status": "APPROVED"})
            assert dict(conn.execute(counts).all()) == {"APPROVED": 2, "": 1}
        command.downgrade(alembic_config(any_database_url), "0019")
        with engine.begin() as conn:  # no trigger left: a new merchant is not counted
            conn.execute(MERCHANT_SQL, {"ext": "d", "name": "Drift Traders", "status": "APPROVED"})
            assert dict(conn.execute(counts).all()) == {"APPROVED": 2, "": 1}
        upgrade(any_database_url)
    finally:
        engine.dispose()


def test_the_sandbox_scenario_column_comes_and_goes_leaving_the_counts_triggers(
        any_database_url):
    upgrade(any_database_url)
    engine = make_engine(any_database_url)
    counts = text("SELECT merchants FROM merchant_status_counts WHERE status = 'APPROVED'")
    try:
        with engine.connect() as conn:
            assert "sandbox_scenario" in {c["name"] for c in inspect(conn).get_columns("merchants")}
        command.downgrade(alembic_config(any_database_url), "0020")
        with engine.begin() as conn:
            assert "sandbox_scenario" not in {
                c["name"] for c in inspect(conn).get_columns("merchants")}
            conn.execute(MERCHANT_SQL, {"ext": "e", "name": "Kept Counting", "status": "APPROVED"})
            assert conn.execute(counts).scalar() == 1  # the 0020 triggers are still there
        upgrade(any_database_url)
    finally:
        engine.dispose()


def test_the_gateway_facts_come_without_touching_the_counts_and_go_back(any_database_url):
    revision, before = revision_named("_gateway_mid_and_pendencies.py")
    upgrade(any_database_url, before)
    engine = make_engine(any_database_url)
    counts = text("SELECT status, merchants FROM merchant_status_counts WHERE merchants <> 0")
    try:
        with engine.begin() as conn:
            conn.execute(MERCHANT_SQL, {"ext": "a", "name": "Facts Traders", "status": "APPROVED"})
        upgrade(any_database_url, revision)
        with engine.begin() as conn:  # merchants was not rebuilt: its triggers still count
            conn.execute(MERCHANT_SQL, {"ext": "b", "name": "Facts Traders", "status": "APPROVED"})
            assert dict(conn.execute(counts).all()) == {"APPROVED": 2}
            assert conn.execute(text("SELECT gateway_mid FROM merchants")).scalars().all() == [
                None, None]
        command.downgrade(alembic_config(any_database_url), before)
        with engine.connect() as conn:
            assert "merchant_pendencies" not in inspect(conn).get_table_names()
            assert "gateway_mid" not in {c["name"] for c in inspect(conn).get_columns("merchants")}
        upgrade(any_database_url)
    finally:
        engine.dispose()
