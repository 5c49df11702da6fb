"""The payment guard on a paused merchant (``payments.service.unavailable_reason``, with
``portal.domain.pausing``): a new hold or payment link is refused before any gateway call, with
the reason in words for ops; holds already taken can still be captured and released."""

from __future__ import annotations

import pytest

from portal.core.db import db
from portal.core.models.payment import Payment
from tests.payments.links.support import counting_initiates
from tests.payments.support import act, authorised_payment, flashes, hold_values, submit
from tests.support.mail import mail_sink, mailing
from tests.support.pausing import stop_now
from tests.support.rows import stored

__all__ = ["mail_sink"]

PAUSED = ("This merchant was paused on {day} by admin@example.com: Suspected fraud under "
          "review (Card testing suspected). New holds and payment links are refused until an "
          "admin lifts it; existing holds can still be captured or released.")


@pytest.fixture
def settings(settings, mail_sink):
    """The payments settings, mailing links to the loopback sink."""
    return mailing(settings, mail_sink)


def holds(app) -> int:
    with app.app_context():
        return db.session.query(Payment).count()


@pytest.mark.parametrize("action", ["send", "email_link"])
def test_a_paused_merchant_refuses_holds_and_links_before_any_call(
        app, browser, merchant_id, credentials, monkeypatch, sandbox, mail_sink, action):
    initiates = counting_initiates(monkeypatch, sandbox)
    page = browser.get(f"/merchants/{merchant_id}/payments/new")  # the form as it was shown
    assert stop_now(app, merchant_id).ok
    refused = submit(browser, page, "form.hold-form", hold_values(), action=action)
    day = f"{stored(app, merchant_id).payments_stopped_at:%Y-%m-%d}"
    assert PAUSED.format(day=day) in refused.text()
    assert (holds(app), initiates, mail_sink.messages()) == (0, [], [])


@pytest.mark.parametrize("action", ["capture", "reverse"])
def test_a_hold_taken_before_the_pause_can_still_be_captured_or_released(
        app, browser, merchant_id, credentials, action):
    payment_id, _ = authorised_payment(browser, merchant_id)
    assert stop_now(app, merchant_id).ok
    page = act(browser, payment_id, action)
    assert "was sent" in flashes(page), flashes(page)
