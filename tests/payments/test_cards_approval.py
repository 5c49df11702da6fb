"""Card holds and payment links need the cards approval (docs/gateway-contract.md, "Approval
per product"): accepted for cards, or, before the gateway named any product, its overall
approval, said on the page; and no open pendency holding that up. Refused otherwise, with the
reason in words, before any call to the gateway (``payments.service.unavailable_reason``, the
one place the rule lives: the hold, the link and the pages all ask it)."""

from __future__ import annotations

import pytest

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.payments.service import unavailable_reason
from tests.payments.links.support import counting_initiates
from tests.payments.support import hold_values, submit
from tests.support.mail import mail_sink, mailing
from tests.support.product_events import CARDS, MCA, accepted, ask_for, deliver, pendency
from tests.support.rows import stored

__all__ = ["mail_sink"]

MCA_ONLY = ("The gateway has accepted this merchant for the multi-currency account (MCA) but "
            "not yet for cards, so it cannot take card holds or payment links until the gateway "
            "accepts it for cards.")
HELD_UP = ("The gateway reports an open pendency holding up this merchant's cards approval, so "
           "it cannot take card holds or payment links until the gateway resolves it.")
NAMED_NO_PRODUCT = "approved this merchant without saying which products it accepted"


@pytest.fixture
def settings(settings, mail_sink):
    """The payments settings, mailing links to the loopback sink."""
    return mailing(settings, mail_sink)


@pytest.fixture
def asked(app, merchant_id: int) -> int:
    """The approved merchant, asking for every product."""
    ask_for(app, merchant_id)
    return merchant_id


def reason_of(app, merchant_id: int) -> str | None:
    with app.app_context():
        return unavailable_reason(db.session.get(Merchant, merchant_id))


def held(app) -> int:
    with app.app_context():
        return db.session.query(Payment).count()


def oid(app, merchant_id: int) -> str:
    return stored(app, merchant_id).onboarding_id


def test_before_the_gateway_names_a_product_holds_rest_on_its_approval(
        browser, asked, credentials, sandbox):
    page = browser.get(f"/merchants/{asked}/payments/new")
    assert NAMED_NO_PRODUCT in page.soup.select_one(".approval-note").get_text()
    assert page.soup.select_one("form.hold-form") is not None
    answer = submit(browser, page, "form.hold-form", hold_values(), action="send", follow=False)
    assert answer.headers["Location"].startswith(sandbox.url)  # the gateway's checkout page


@pytest.mark.parametrize("action", ["send", "email_link"])
def test_accepted_for_mca_only_refuses_holds_and_links_before_any_call(
        app, browser, asked, credentials, monkeypatch, sandbox, mail_sink, action):
    initiates = counting_initiates(monkeypatch, sandbox)
    page = browser.get(f"/merchants/{asked}/payments/new")  # the form as it was shown
    deliver(app, accepted(oid(app, asked), MCA, "e1"))
    refused = submit(browser, page, "form.hold-form", hold_values(), action=action)
    assert MCA_ONLY in refused.text()
    assert (held(app), initiates, mail_sink.messages()) == (0, [], [])
    for path in ("/payments/new", "/payments"):
        shown = browser.get(f"/merchants/{asked}{path}")
        assert shown.soup.select_one(".unavailable").get_text(" ", strip=True) == (
            f"Payments unavailable. {MCA_ONLY} Where its onboarding stands")
    assert browser.get(f"/merchants/{asked}/payments/new").soup.select(".hold-form") == []

    deliver(app, accepted(oid(app, asked), CARDS, "e2"))
    page = browser.get(f"/merchants/{asked}/payments/new")
    assert page.soup.select(".unavailable, .approval-note") == []
    answer = submit(browser, page, "form.hold-form", hold_values(), action=action, follow=False)
    assert answer.status_code == 302
    assert held(app) == 1


def test_an_open_pendency_holding_up_cards_refuses_holds_until_resolved(app, asked):
    deliver(app, accepted(oid(app, asked), CARDS, "e1"))
    assert reason_of(app, asked) is None
    deliver(app, pendency(oid(app, asked), "p1", cards="true", mca="false"))
    assert reason_of(app, asked) == HELD_UP
    deliver(app, pendency(oid(app, asked), "p2", status="RESOLVED", at="1767700000000"))
    assert reason_of(app, asked) is None


def test_a_pendency_holding_up_only_the_mca_leaves_cards_alone(app, asked):
    deliver(app, pendency(oid(app, asked), "p1", cards="false", mca="true"))
    assert reason_of(app, asked) is None


def test_a_merchant_that_asked_for_no_card_product_takes_no_holds(app, merchant_id):
    ask_for(app, merchant_id, ("GLOBAL_FUND_TRANSFER",))
    assert reason_of(app, merchant_id) == (
        "This merchant did not ask for a card product on its Products step, so it cannot take "
        "card holds or payment links.")


def test_the_credentials_can_be_set_up_before_the_cards_approval(app, browser, asked):
    deliver(app, accepted(oid(app, asked), MCA, "e1"))
    page = browser.get(f"/merchants/{asked}/payments/credentials")
    assert MCA_ONLY in page.soup.select_one(".approval-note").get_text()
    saved = submit(browser, page, "form.credentials-form")
    assert "Credentials saved" in saved.text()
