"""A customer opening the payment link of a merchant that cannot take payments now (paused)
sees a neutral "This payment is not available" page, never a gateway error, and nothing goes
to the gateway; ops read why on the hold's page and in the audit trail; once the pause is
lifted the same link opens."""

from __future__ import annotations

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.pausing.stops import lift, open_stops
from tests.payments.links.support import (
    counting_initiates,
    hold_page,
    open_page,
    press_continue,
    sent_link,
)
from tests.support.pausing import stop_now
from tests.support.team import audited


def lift_all(app, merchant_id: int) -> None:
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        for stop in open_stops(merchant):
            lift(merchant, stop.id, "Reviewed", Actor("admin@example.com", None))


def test_a_paused_merchants_link_shows_the_neutral_page_and_sends_nothing(
        app, browser, merchant_id, credentials, mail_sink, sandbox, monkeypatch):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    initiates = counting_initiates(monkeypatch, sandbox)
    assert stop_now(app, merchant_id).ok
    customer = app.test_client()
    for answer in (open_page(customer, link).response, press_continue(customer, link)):
        assert answer.status_code == 200
        page = answer.get_data(as_text=True)
        assert "This payment is not available" in page
        assert "paused" not in page.lower() and "gateway" not in page.lower()
    assert initiates == []
    [refused] = [e for e in audited(app, "payment_link.open") if e.outcome == "refused"]
    assert "This merchant was paused" in refused.detail["error"]
    assert "This merchant was paused" in hold_page(browser, payment_id).soup.select_one(
        "[data-field='link-failure']").get_text()
    lift_all(app, merchant_id)
    answer = press_continue(customer, link)
    assert answer.status_code == 303 and answer.headers["Location"].startswith(sandbox.url)
    assert len(initiates) == 1
