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
from portal.domain.asks import wording
from tests.asks.support import (
    PDF,
    asked_merchant,
    asks_on,
    link_page,
    post_upload,
    wording_path,
)
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
    words = wording_path(client, merchant_id)
    client.post(words, data={"merchant_words_en": "Your March bank statement",
                             "ops_words": "Statement (March)"})
    panel = _panel(client, merchant_id)
    assert panel.select_one(".ask__ops-words").get_text(strip=True) == "Statement (March)"
    path = merchant_link(app, merchant_id)
    assert asks_on(link_page(app.test_client(), path)) == [
        ("asked", "Your March bank statement")]
    client.post(words, data={"merchant_words_en": "", "ops_words": ""})
    assert _panel(client, merchant_id).select_one(".ask__ops-words").get_text(strip=True) == \
        "Bank statement"
    assert asks_on(link_page(app.test_client(), path)) == [
        ("asked", "A recent statement of your business bank account")]


def test_a_refused_wording_says_why_beside_its_field_and_keeps_what_was_typed(
        app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    words = wording_path(client, merchant_id)
    response = client.post(words, data={"merchant_words_en": "x" * 501,
                                        "merchant_words_hi": "मार्च का बैंक स्टेटमेंट",
                                        "ops_words": "Statement (March)"})
    assert response.status_code == 200
    page = BeautifulSoup(response.data, "html.parser")
    assert page.select_one("h1").get_text(strip=True) == "The wording of Bank statement"
    english = page.select_one("textarea[name=merchant_words_en]")
    assert english.get_text().strip() == "x" * 501 and english["aria-invalid"] == "true"
    errors = page.select_one(f"#{english['id']}-errors").get_text(strip=True)
    assert errors == "Keep it to 500 characters."
    assert page.select_one("textarea[name=merchant_words_hi]").get_text().strip() == \
        "मार्च का बैंक स्टेटमेंट"
    assert page.select_one("textarea[name=merchant_words_hi]")["lang"] == "hi"
    assert page.select_one("textarea[name=ops_words]").get_text().strip() == "Statement (March)"
    with app.app_context():
        assert wording.written_for(db.session.get(Merchant, merchant_id)) == {}


def test_the_merchant_reads_the_words_of_their_pages_language(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    words = wording_path(client, merchant_id)
    form = BeautifulSoup(client.get(words).data, "html.parser")
    hindi_help = form.select_one("textarea[name=merchant_words_hi]")["aria-describedby"]
    assert form.select_one(f"#{hindi_help}").get_text(strip=True) == (
        "Empty: the default, \u201cआपके व्यवसाय के बैंक खाते का हाल का स्टेटमेंट\u201d.")
    client.post(words, data={"merchant_words_en": "Your March bank statement"})
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()
    assert asks_on(link_page(merchant, path)) == [("asked", "Your March bank statement")]
    merchant.post(path.replace("?", "/language?"), data={"language": "hi"})
    assert asks_on(link_page(merchant, path)) == [  # written in English only: Hindi's default
        ("asked", "आपके व्यवसाय के बैंक खाते का हाल का स्टेटमेंट")]
    client.post(words, data={"merchant_words_en": "Your March bank statement",
                             "merchant_words_hi": "मार्च का बैंक स्टेटमेंट"})
    assert asks_on(link_page(merchant, path)) == [("asked", "मार्च का बैंक स्टेटमेंट")]
    kept = BeautifulSoup(client.get(words).data, "html.parser")
    assert kept.select_one("textarea[name=merchant_words_en]").get_text().strip() == \
        "Your March bank statement"


def test_a_document_not_asked_has_no_wording_page_and_strangers_none(app, client, auth, sandbox):
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    assert client.get(f"/merchants/{merchant_id}/asks/not-an-ask/words").status_code == 404
    words = wording_path(client, merchant_id)
    assert "/login" in app.test_client().get(words).headers["Location"]  # staff only


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
