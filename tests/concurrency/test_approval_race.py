"""Admins pressing Approve on the same large refund at once, each with its own engine, on
SQLite and PostgreSQL: one claim wins, the refund reaches the gateway exactly once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from portal.app.factory import create_app
from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models import ApprovalRequest, AuditEvent, Payment, Role
from portal.domain.four_eyes import decisions, requests
from portal.domain.users.accounts import create_user, find_user
from tests.payments.support import (
    act,
    authorised_payment,
    browser,
    counting,
    credentials,
    merchant_id,
)
from tests.support.accounts import TEST_PASSWORD
from tests.support.settings import with_payments

__all__ = ["browser", "credentials", "merchant_id"]

APPROVERS = 4


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings (on each kind of database) with payments credentials."""
    return with_payments(settings, sandbox, tmp_path)


@pytest.fixture
def engines(settings: Settings) -> Iterator[list[Flask]]:
    """One portal per approver, each with its own engine and connection pool."""
    apps = [create_app(settings) for _ in range(APPROVERS)]
    yield apps
    for each in apps:
        db.engine(each).dispose()


def pending_refund(app: Flask, payment_id: int) -> int:
    """A refund of 1200.00 asked for by admin@example.com; the request's id."""
    with app.app_context():
        payment = db.session.get(Payment, payment_id)
        asker = find_user("admin@example.com")
        assert payment is not None and asker is not None
        return requests.request_refund(payment, "1200.00", False, "Goods returned",
                                       payment.action_nonce, asker.id).id


def approver_ids(app: Flask) -> list[int]:
    with app.app_context():
        users = [create_user(f"approver{n}@example.com", TEST_PASSWORD, Role.ADMIN)
                 for n in range(APPROVERS)]
        db.session.commit()
        return [user.id for user in users]


def test_admins_approving_at_once_send_the_refund_once(app, engines, browser, merchant_id,
                                                       credentials, sandbox, monkeypatch):
    payment_id, _ = authorised_payment(browser, merchant_id)
    act(browser, payment_id, "capture")
    request_id = pending_refund(app, payment_id)
    refunds = counting(monkeypatch, sandbox, "refund")
    start = threading.Barrier(APPROVERS)
    outcomes: list[decisions.Decision] = []
    errors: list[BaseException] = []

    def approve(each: Flask, user_id: int) -> None:
        try:
            with each.app_context():
                start.wait()
                outcomes.append(decisions.approve(current_settings(), request_id, user_id))
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=approve, args=pair)
               for pair in zip(engines, approver_ids(app), strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert sorted(o.ok for o in outcomes) == [False] * (APPROVERS - 1) + [True]
    assert len(refunds) == 1
    with app.app_context():
        assert db.session.get(ApprovalRequest, request_id).state == "done"
        audited = [e.action for e in db.session.query(AuditEvent)]
        assert audited.count("approval.approved") == 1
        assert audited.count("approval.approve") == APPROVERS - 1  # the refused presses
        assert audited.count("payment.refund") == 1
