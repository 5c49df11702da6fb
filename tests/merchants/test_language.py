"""Ops choose the language of a merchant's pages and emails on the merchant's page: a select of
the languages as their readers write them, CSRF-checked, for signed-in staff only, audited, and
the merchant's link then opens in it."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.merchant import Merchant
from tests.support.accounts import AuthActions
from tests.support.browser import Page
from tests.verification.support import merchant_link, onboard


def language_of(app, merchant_id: int) -> str:
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        assert merchant is not None
        return merchant.language


def summary(client, merchant_id: int) -> BeautifulSoup:
    response = client.get(f"/merchants/{merchant_id}")
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def test_the_merchants_page_offers_the_languages_by_their_own_names(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app)
    select_box = summary(client, merchant_id).select_one("form.language-form select")
    options = [(option["value"], option.get_text(), option.get("lang"))
               for option in select_box.select("option")]
    assert options == [("en", "English", "en"), ("hi", "हिन्दी", "hi")]
    assert select_box.select_one("option[selected]")["value"] == "en"


def test_ops_choose_hindi_audited_and_the_merchants_link_opens_in_it(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app)
    response = client.post(f"/merchants/{merchant_id}/language", data={"language": "hi"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/merchants/{merchant_id}#language-heading")
    assert language_of(app, merchant_id) == "hi"
    with app.app_context():
        event = db.session.scalar(
            select(AuditEvent).where(AuditEvent.action == "merchant.language"))
        assert event is not None
        assert (event.merchant_id, event.detail, event.actor_label) == (
            merchant_id, {"from": "en", "to": "hi"}, "ops@example.com")
    page = summary(client, merchant_id)
    assert page.select_one("form.language-form option[selected]")["value"] == "hi"
    assert "now in Hindi" in page.get_text(" ")
    merchant_page = BeautifulSoup(client.get(merchant_link(app, merchant_id)).data, "html.parser")
    assert merchant_page.html["lang"] == "hi"


def test_a_pick_on_the_link_comes_first_and_the_page_says_so(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app)
    path = merchant_link(app, merchant_id)
    client.post(path.replace("?token=", "/language?token="), data={"language": "hi"})
    notice = summary(client, merchant_id).select_one(".language-picked")
    assert notice is not None
    assert "The merchant picked Hindi on their link" in notice.get_text()


def test_a_language_not_in_the_table_is_refused_beside_the_field(app, client, auth):
    auth.login("ops")
    merchant_id = onboard(app)
    response = client.post(f"/merchants/{merchant_id}/language", data={"language": "fr"})
    assert response.status_code == 400
    page = Page(response, BeautifulSoup(response.data, "html.parser"))
    assert page.errors_for("language") == ["Not a valid choice."]
    assert language_of(app, merchant_id) == "en"


def test_signed_out_nobody_changes_the_language(app, client):
    merchant_id = onboard(app)
    response = client.post(f"/merchants/{merchant_id}/language", data={"language": "hi"})
    assert response.status_code in (302, 401)
    assert language_of(app, merchant_id) == "en"


def test_the_form_without_its_csrf_token_changes_nothing(csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).login("ops")
    merchant_id = onboard(csrf_app)
    response = csrf_client.post(f"/merchants/{merchant_id}/language", data={"language": "hi"})
    assert response.status_code == 400
    assert language_of(csrf_app, merchant_id) == "en"
