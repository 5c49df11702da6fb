"""The dashboard's counts per status (a table that triggers on ``merchants`` keep, migration
0020) equal a count of the merchants grouped by status after every kind of change, through the
portal or straight in SQL, on SQLite and PostgreSQL."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import func, select, text

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.core.models.status_count import NO_STATUS, MerchantStatusCount
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.create import start_merchant
from portal.domain.onboarding.status_history import change_status
from portal.features.merchants.removal import delete_abandoned
from tests.bulk.support import EXAMPLE
from tests.outbox.support import (
    app,
    database_url,
    migrated_any_database_url,
    migrated_postgres_template,
)
from tests.support.rows import MERCHANT_SQL

__all__ = ["app", "database_url", "migrated_any_database_url", "migrated_postgres_template"]


def kept_counts(app: Flask) -> dict[str, int]:
    """The counts table, statuses no merchant holds left out."""
    with app.app_context():
        return dict(db.session.execute(
            select(MerchantStatusCount.status, MerchantStatusCount.merchants)
            .where(MerchantStatusCount.merchants != 0)).all())


def counted(app: Flask) -> dict[str, int]:
    """The same counts read the slow way: every merchant, grouped by status."""
    status = func.coalesce(Merchant.status, NO_STATUS)
    with app.app_context():
        return dict(db.session.execute(
            select(status, func.count()).group_by(status)).all())


def move(app: Flask, merchant_id: int, *statuses: str) -> None:
    """Move a merchant through ``statuses``, each move committed as a poll commits it."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        for status in statuses:
            assert change_status(merchant, status, StatusSource.POLL, actor=SYSTEM)
            db.session.commit()


def test_the_counts_follow_starts_moves_a_bulk_import_and_deletes(app, runner, sandbox):
    with app.app_context():
        started, errors = start_merchant(scenarios.form_data(scenarios.HAPPY, "create"),
                                         actor=SYSTEM)
        assert errors == [] and started is not None
        db.session.commit()
        abandoned = started.id
    assert kept_counts(app) == counted(app) == {NO_STATUS: 1}

    result = runner.invoke(args=["merchants", "import", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert kept_counts(app) == counted(app) == {NO_STATUS: 1, "PENDING_VERIFICATION": 10}

    with app.app_context():
        first, second, third = db.session.scalars(
            select(Merchant.id).where(Merchant.status.is_not(None)).order_by(Merchant.id)
            .limit(3))
    move(app, first, "PENDING_REVIEW", "RFI", "PENDING_REVIEW", "APPROVED")
    move(app, second, "PENDING_REVIEW", "REJECTED")
    assert kept_counts(app) == counted(app) == {
        NO_STATUS: 1, "PENDING_VERIFICATION": 8, "APPROVED": 1, "REJECTED": 1}

    with app.app_context():  # a reader that lost the race moves neither the status nor a count
        stale = db.session.get(Merchant, third)
        move(app, third, "PENDING_REVIEW")
        assert not change_status(stale, "RFI", StatusSource.WEBHOOK, actor=SYSTEM)
        db.session.commit()
    assert kept_counts(app) == counted(app) == {
        NO_STATUS: 1, "PENDING_VERIFICATION": 7, "PENDING_REVIEW": 1, "APPROVED": 1,
        "REJECTED": 1}

    with app.app_context():
        assert delete_abandoned(current_settings(), db.session.get(Merchant, abandoned), SYSTEM)
    assert kept_counts(app) == counted(app) == {
        "PENDING_VERIFICATION": 7, "PENDING_REVIEW": 1, "APPROVED": 1, "REJECTED": 1}


def run_sql(app: Flask, statement, params) -> None:
    """One statement in its own transaction, beside the portal (a script, a repair by hand)."""
    with app.app_context(), db.engine(app).begin() as conn:
        conn.execute(statement, params)


def test_the_counts_follow_changes_made_straight_in_sql(app):
    run_sql(app, MERCHANT_SQL, [{"ext": f"sql-{n}", "name": "Script Traders", "status": status}
                                for n, status in enumerate(
                                    ["IN_PROGRESS", "IN_PROGRESS", None, "APPROVED"])])
    assert kept_counts(app) == counted(app) == {"IN_PROGRESS": 2, NO_STATUS: 1, "APPROVED": 1}

    run_sql(app, text("UPDATE merchants SET status = :to WHERE external_onboarding_id = :ext"),
            [{"ext": "sql-0", "to": "APPROVED"}, {"ext": "sql-2", "to": "INITIATED"},
             {"ext": "sql-3", "to": "APPROVED"}])  # the last one changes nothing
    assert kept_counts(app) == counted(app) == {"IN_PROGRESS": 1, "INITIATED": 1, "APPROVED": 2}

    run_sql(app, text("UPDATE merchants SET status = NULL, display_name = 'Renamed' "
                      "WHERE external_onboarding_id = :ext"), {"ext": "sql-1"})
    run_sql(app, text("DELETE FROM merchants WHERE status = :status"), {"status": "APPROVED"})
    assert kept_counts(app) == counted(app) == {NO_STATUS: 1, "INITIATED": 1}
