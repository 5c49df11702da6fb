"""Ops' side of the asks, on the merchant's page: a link can be sent after verification while
documents are asked, the wording is kept per ask (empty: the default again), and only staff
act on the merchant's uploads, of which the merchant's owner is told."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice
from portal.core.models.user import User
from tests.asks.support import PDF, asked_merchant, asks_on, link_page, post_upload
from tests.verification.support import merchant_link


def _panel(client, merchant_id: int) -> BeautifulSoup:
    soup = BeautifulSoup(client.get(f"/merchants/{merchant_id}").data, "html.parser")
    return soup.select_one("section.asks")


def test_a_verified_merchant_asked_for_documents_can_be_given_a_link(app, client, auth,
                                                                      sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    assert _panel(client, merchant_id).select_one("form.asks__email") is not None
    page = BeautifulSoup(client.post(f"/merchants/{merchant_id}/verification/links").data,
                         "html.parser")
    links = page.select_one("section.merchant-links")
    assert "the link's page lets them upload each one" in links.get_text(" ", strip=True)
    assert "/verify/" in links.select_one("#merchant-link-url")["value"]


def test_the_wording_is_kept_per_ask_and_empty_means_the_default(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    ref = _panel(client, merchant_id).select_one("details.ask__wording input[name=ask]")["value"]
    words = f"/merchants/{merchant_id}/asks/words"
    page = client.post(words, data={"ask": ref, "merchant_words": "x" * 501},
                       follow_redirects=True).get_data(as_text=True)
    assert "The wording is not changed: Keep it to 500 characters." in page
    client.post(words, data={"ask": ref, "merchant_words": "Your March bank statement",
                             "ops_words": "Statement (March)"})
    panel = _panel(client, merchant_id)
    assert panel.select_one(".ask__ops-words").get_text(strip=True) == "Statement (March)"
    path = merchant_link(app, merchant_id)
    assert asks_on(link_page(app.test_client(), path)) == [
        ("asked", "Your March bank statement")]
    client.post(words, data={"ask": ref, "merchant_words": "", "ops_words": ""})
    assert _panel(client, merchant_id).select_one(".ask__ops-words").get_text(strip=True) == \
        "Bank statement"
    assert asks_on(link_page(app.test_client(), path)) == [
        ("asked", "A recent statement of your business bank account")]


def test_only_signed_in_staff_send_or_refuse(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()
    post_upload(merchant, path, link_page(merchant, path), PDF, "statement.pdf")
    send = _panel(client, merchant_id).select_one("form.ask__send")["action"]
    assert merchant.post(send).status_code in (302, 401, 403)
    assert asks_on(link_page(merchant, path))[0][0] == "waiting"


def test_the_owner_is_told_of_an_upload_to_review(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        merchant.owner_id = db.session.scalar(select(User.id).where(User.role == "ops"))
        db.session.commit()
    path = merchant_link(app, merchant_id)
    merchant_client = app.test_client()
    post_upload(merchant_client, path, link_page(merchant_client, path), b"not a pdf", "a.pdf")
    post_upload(merchant_client, path, link_page(merchant_client, path), PDF, "statement.pdf")
    with app.app_context():
        assert list(db.session.scalars(select(Notice.kind).where(
            Notice.merchant_id == merchant_id))) == ["merchant_upload"]  # the refused one: none
    inbox = BeautifulSoup(client.get("/notices").data, "html.parser")
    assert "uploaded a document asked of them on their link" in inbox.get_text(" ", strip=True)
