"""The migration that adds payment links and the searched columns: payments already there get
their amount in ten-thousandths and their customer's email, lower-cased, from the stored body;
it goes back cleanly."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Engine, inspect, text

from portal.core.db import make_engine
from portal.core.migrate import alembic_config, upgrade
from tests.support.revisions import revision_named
from tests.support.rows import MERCHANT_SQL

PAYMENT_SQL = text(
    "INSERT INTO payments (merchant_id, merchant_txn_id, merchant_unique_id, status, "
    "gateway_status, unchanged_polls, amount, currency, request_payload, reason_code, message, "
    "action_nonce, action_state, created_at, updated_at) VALUES (1, :ref, :ref, 'AUTHORIZED', "
    "'', 0, :amount, 'INR', :body, '', '', 'n', 'idle', '2026-01-01', '2026-01-01')")


def payments_before(url: str, migration: str, rows: list[dict]) -> tuple[str, str, Engine]:
    """The database at the revision before ``migration`` (a file name's end), holding one
    merchant and ``rows`` of payments: the migration's revision, the one before, an engine."""
    revision, before = revision_named(migration)
    upgrade(url, before)
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(MERCHANT_SQL, {"ext": "a", "name": "Chai Point", "status": "APPROVED"})
        conn.execute(PAYMENT_SQL, rows)
    return revision, before, engine


def test_payments_already_there_get_their_searched_columns(any_database_url):
    revision, before, engine = payments_before(any_database_url, "_payment_links_and_search.py", [
                {"ref": "PT1", "amount": "1250.5",
                 "body": '{"paymentData": {"billingData": {"emailId": " Asha@Example.com"}}}'},
                {"ref": "PT2", "amount": "99", "body": "{}"},
                {"ref": "PT3", "amount": "not a number",
                 "body": '{"customerData": {"emailId": "ravi@example.com"}}'}])
    try:
        upgrade(any_database_url, revision)
        with engine.connect() as conn:
            assert conn.execute(text(
                "SELECT merchant_txn_id, amount_units, customer_email FROM payments "
                "ORDER BY id")).all() == [("PT1", 12505000, "asha@example.com"),
                                          ("PT2", 990000, None),
                                          ("PT3", None, "ravi@example.com")]
        command.downgrade(alembic_config(any_database_url), before)
        with engine.connect() as conn:
            assert "payment_links" not in inspect(conn).get_table_names()
            assert "amount_units" not in {c["name"] for c in inspect(conn).get_columns(
                "payments")}
        upgrade(any_database_url)
    finally:
        engine.dispose()


def test_payments_already_there_get_their_guests_name(any_database_url):
    revision, before, engine = payments_before(any_database_url, "_payment_customer_name.py", [
                {"ref": "PT1", "amount": "1",
                 "body": '{"paymentData": {"billingData": {"firstName": " Asha ", '
                         '"lastName": "Rao"}}}'},
                {"ref": "PT2", "amount": "1", "body": '{"customerData": {"firstName": "Ravi"}}'},
                {"ref": "PT3", "amount": "1", "body": "{}"}])
    try:
        upgrade(any_database_url, revision)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT customer_name FROM payments ORDER BY id")).scalars(
                ).all() == ["Asha Rao", "Ravi", None]
        command.downgrade(alembic_config(any_database_url), before)
        with engine.connect() as conn:
            assert "customer_name" not in {c["name"] for c in inspect(conn).get_columns(
                "payments")}
        upgrade(any_database_url)
    finally:
        engine.dispose()
