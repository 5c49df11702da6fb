"""Links that recover: an expired or withdrawn link's page sends a new one on request, to the
address on file only, rate-limited, and tells the merchant's owner; a finished merchant's link
says so and what happens next."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.config import Settings, current_settings
from portal.core.db import db
from portal.core.models import Merchant, MerchantLink, Notice, Role
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_links as links
from portal.domain.users.accounts import create_user
from tests.support.accounts import TEST_PASSWORD
from tests.support.mail import link_in, mail_sink, mailing
from tests.verification.support import merchant_link, onboard

__all__ = ["mail_sink"]
SIGNATORY = "asha.rao@merchant.example.com"
DAY = 24 * 3600


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, mailing to the loopback sink."""
    return mailing(settings, mail_sink).with_changes(partner_name="Acme Payments")


@pytest.fixture
def owned(app, portal_clock) -> int:
    """A merchant at PENDING_VERIFICATION with an owner in the team."""
    merchant_id = onboard(app)
    with app.app_context():
        owner = create_user("owner@example.com", TEST_PASSWORD, Role.OPS)
        db.session.get(Merchant, merchant_id).owner_id = owner.id
        db.session.commit()
    return merchant_id


def _soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _renew_url(response) -> str:
    form = _soup(response).select_one(".link-over form")
    assert form is not None, response.get_data(as_text=True)
    assert form.select_one("button").get_text() == "Send me a new link"
    return form["action"]


def test_an_expired_link_sends_a_new_one_to_the_address_on_file(app, client, owned,
                                                                mail_sink, portal_clock):
    path = merchant_link(app, owned)
    portal_clock.advance(DAY + 1)
    over = client.get(path)
    assert over.status_code == 410
    assert _soup(over).select_one("h1").get_text() == "This link has expired."
    assert "Sandbox Traders" not in over.get_data(as_text=True)
    assert _soup(over).select_one("iframe") is None
    # an address typed on the page is never used: the form has no field for one, and a posted
    # one is ignored
    sent = client.post(_renew_url(over), data={"email": "someone@elsewhere.example"})
    assert sent.status_code == 200
    assert "We emailed a new verification link to a***@merchant.example.com" in \
        _soup(sent).get_text(" ", strip=True)
    [message] = mail_sink.messages()
    assert message["To"] == SIGNATORY
    opened = client.get(link_in(message))
    assert opened.status_code == 200 and _soup(opened).select_one("#verification-frame")
    with app.app_context():
        [notice] = db.session.scalars(select(Notice)).all()
        assert (notice.kind, notice.merchant_id) == ("link_renewed", owned)
        newest = db.session.scalars(select(MerchantLink).order_by(MerchantLink.id.desc())).first()
        assert newest.created_by == "merchant link"


def test_the_owner_reads_the_notice_in_words(app, client, auth, owned, portal_clock):
    path = merchant_link(app, owned)
    portal_clock.advance(DAY + 1)
    client.post(_renew_url(client.get(path)))
    auth.login("ops", email="owner@example.com")
    page = _soup(client.get("/notices")).get_text(" ", strip=True)
    assert "asked for a new link" in page
    assert "asked for a new one from its page" in page


def test_new_links_are_rate_limited_in_words(app, client, owned, mail_sink, portal_clock):
    path = merchant_link(app, owned)
    portal_clock.advance(DAY + 1)
    renew = _renew_url(client.get(path))
    assert client.post(renew).status_code == 200
    again = client.post(renew)
    assert again.status_code == 429
    refusal = _soup(again).select_one(".link-over__refusal").get_text()
    assert "A new link was sent at 09:00 UTC" in refusal
    assert "You can ask again after 09:10 UTC." in refusal
    portal_clock.advance(11 * 60)
    assert client.post(renew).status_code == 200
    portal_clock.advance(11 * 60)
    assert client.post(renew).status_code == 200
    portal_clock.advance(11 * 60)
    fourth = client.post(renew)
    assert fourth.status_code == 429
    assert "3 new links were sent today" in _soup(fourth).get_text()
    assert len(mail_sink.messages()) == 3


def test_a_withdrawn_link_offers_a_new_one_and_a_forged_one_nothing(app, client, owned,
                                                                     mail_sink):
    with app.app_context():
        merchant = db.session.get(Merchant, owned)
        link, token = links.issue(current_settings().secret_key, merchant,
                                  Actor("ops@example.com"))
        links.revoke(merchant, link.id, Actor("ops@example.com"))
    over = client.get(f"/verify/{owned}?token={token}")
    assert over.status_code == 410
    assert _soup(over).select_one("h1").get_text() == "This link was withdrawn."
    forged = client.post(f"/verify/{owned}/renew?token=forged")
    assert forged.status_code == 403
    assert _soup(forged).select_one(".link-over form") is None
    assert mail_sink.messages() == []


@pytest.mark.parametrize(("status", "outcome"), [
    ("PENDING_REVIEW", "now checks your details"),
    ("APPROVED", "will be in touch about taking payments"),
])
def test_a_finished_merchants_link_says_so_and_what_happens_next(app, client, owned, mail_sink,
                                                                 portal_clock, status, outcome):
    path = merchant_link(app, owned)
    with app.app_context():
        db.session.get(Merchant, owned).status = status
        db.session.commit()
    live = _soup(client.get(path))
    assert outcome in live.select_one(".verification-finished").get_text()
    assert live.select_one("#camera-check") is None
    portal_clock.advance(DAY + 1)
    over = client.get(path)
    assert _soup(over).select_one("h1").get_text() == "Your verification is complete"
    assert outcome in _soup(over).select_one(".link-over__next").get_text()
    assert _soup(over).select_one(".link-over form") is None
    client.post(path.replace("?token=", "/renew?token="))
    assert mail_sink.messages() == []
