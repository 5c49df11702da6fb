"""Two ops staff refunding a payment at once, each under FOUR_EYES_REFUND_ABOVE but together
over it, through a served portal on SQLite and PostgreSQL: one refund is sent, the other waits
for a second admin. Each keeps trying as a person would (a form used meanwhile is reloaded),
so splitting a large refund across two browsers gets no further than splitting it in one."""

from __future__ import annotations

import threading
from decimal import Decimal
from pathlib import Path

import pytest
import requests

from portal.core.config import Settings
from tests.payments.support import (
    act,
    authorised_payment,
    browser,
    counting,
    credentials,
    merchant_id,
)
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.browser import form_values
from tests.support.servers import page_of, serve, sign_in
from tests.support.settings import with_payments

__all__ = ["browser", "credentials", "merchant_id"]

#: Each refund alone is within the amount; the two together are over it.
ABOVE, EACH = Decimal(1000), "600.00"
STAFF = ("ops-one@example.com", "ops-two@example.com")
#: Tries before a person gives up (a try ends early when the form was used meanwhile).
TRIES = 30


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings (on each kind of database) with payments and the four-eyes amount."""
    return with_payments(settings, sandbox, tmp_path).with_changes(four_eyes_refund_above=ABOVE)


def refund_until_decided(http: requests.Session, url: str, payment_id: int) -> str:
    """Refund EACH as a person would, reloading the page whenever the form was used or the
    payment busy meanwhile: 'sent', 'waits' (the form asks why, for a second admin) or
    'undecided'."""
    for _ in range(TRIES):
        page = page_of(http.get(f"{url}/payments/{payment_id}", timeout=30))
        form = page.select_one("form.action--refund")
        if form is None:  # another action is in flight: the page offers none
            continue
        answer = http.post(url + form["action"], timeout=30, data={
            **form_values(form), "confirm": "y", "amount": EACH, "again": "y"})
        if "The refund was sent" in answer.text:
            return "sent"
        if answer.status_code == 400 and "another admin reads it" in answer.text:
            return "waits"
    return "undecided"


def test_two_refunds_within_the_amount_at_once_do_not_both_pass(app, browser, merchant_id,
                                                                 credentials, sandbox,
                                                                 monkeypatch):
    payment_id, _ = authorised_payment(browser, merchant_id)
    act(browser, payment_id, "capture")  # 1500.00 INR captured
    for email in STAFF:
        AuthActions(app, app.test_client()).create("ops", email)
    refunds = counting(monkeypatch, sandbox, "refund")
    start = threading.Barrier(len(STAFF))
    outcomes: list[str] = []
    errors: list[BaseException] = []
    with serve(app) as url:
        people = [sign_in(url, email, TEST_PASSWORD) for email in STAFF]

        def refund(http: requests.Session) -> None:
            try:
                start.wait()
                outcomes.append(refund_until_decided(http, url, payment_id))
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        threads = [threading.Thread(target=refund, args=(http,)) for http in people]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert errors == []
    assert sorted(outcomes) == ["sent", "waits"]
    assert len(refunds) == 1
