"""The editing page of a merchant email in each language (issue 39): the admin chooses the
language, sees whether each is the built-in text or an admin's, and saves and restores each by
itself; an error is shown beside its field with what was typed; admins only, CSRF checked."""

from __future__ import annotations

from bs4 import BeautifulSoup

from portal.domain.merchant_mail import templates
from tests.support.accounts import AuthActions
from tests.support.team import audited

EDIT = "/admin/emails/merchant_link"
HINDI = f"{EDIT}?language=hi"
HINDI_SUBJECT = "$business_name: वेरिफ़िकेशन बाकी है"
HINDI_BODY = "नमस्ते $signatory_name,\r\n\r\nयह लिंक खोलें: $link\r\n\r\n$partner_name"


def _page(response) -> BeautifulSoup:
    assert response.status_code == 200, response.status_code
    return BeautifulSoup(response.data, "html.parser")


def _choices(page: BeautifulSoup) -> dict[str, tuple[str, str, bool]]:
    """Each language of the choice: its link's words, its text's state, whether it is chosen."""
    return {item["data-language"]: (
        item.a.get_text(" ", strip=True), item.select_one(".language-choice__state").get_text(
            strip=True), item.a.get("aria-current") == "page")
        for item in page.select("nav.language-choice li")}


def _typed(page: BeautifulSoup) -> tuple[str, str]:
    return (page.select_one("#subject").get("value", ""),
            page.select_one("#body").get_text().removeprefix("\r\n").removeprefix("\n"))


def test_the_page_offers_each_language_by_its_name_english_first(client, auth):
    auth.login("admin")
    page = _page(client.get(EDIT))
    nav = page.select_one("nav.language-choice")
    assert nav.h2.get_text(strip=True) == "Language you edit"
    assert nav["aria-labelledby"] == nav.h2["id"]
    assert _choices(page) == {"en": ("English", "Built-in text", True),
                              "hi": ("हिन्दी (Hindi)", "Built-in text", False)}
    assert nav.select_one('[data-language="hi"] a span')["lang"] == "hi"
    assert page.select_one("#subject")["value"] == "Complete the verification of $business_name"
    assert page.select_one("#body")["lang"] == "en"
    hindi = _page(client.get(nav.select_one('[data-language="hi"] a')["href"]))
    assert _choices(hindi)["hi"][2] and not _choices(hindi)["en"][2]
    with client.application.app_context():
        expected = templates.built_in("merchant_link", "hi")
    assert _typed(hindi) == (expected.subject, expected.body)
    assert hindi.select_one("#body")["lang"] == hindi.select_one("#subject")["lang"] == "hi"
    assert hindi.select_one("#text-heading").get_text(" ", strip=True) == "The हिन्दी (Hindi) text"
    assert hindi.select_one("form input[type=submit]")["value"] == "Save the Hindi text"
    assert hindi.select_one(".restore-form") is None  # nothing of an admin's to go back from


def test_saving_hindi_changes_hindi_alone_and_restoring_it_brings_the_built_in_back(
        app, client, auth):
    auth.login("admin")
    saved = client.post(HINDI, data={"subject": HINDI_SUBJECT, "body": HINDI_BODY})
    assert saved.headers["Location"] == HINDI
    page = _page(client.get(HINDI))
    assert page.select_one(".flash").get_text(strip=True) == (
        "The Hindi text of 'Verification link sent on request' was saved.")
    choices = _choices(page)
    assert choices["en"][1] == "Built-in text"
    assert choices["hi"][1].startswith("Changed by admin@example.com on ")
    assert _typed(page) == (HINDI_SUBJECT, HINDI_BODY)
    assert page.select_one(".built-in-text summary").get_text(strip=True) == (
        "The built-in Hindi text")
    index = _page(client.get("/admin/emails"))
    card = index.select_one('[data-template="merchant_link"]')
    assert [li.select_one(".mail-template__state").get_text(strip=True)
            for li in card.select(".mail-template__languages li")] == [
        "Built-in text", "Changed by an admin"]
    restore = page.select_one("form.restore-form")
    assert restore["action"] == f"{EDIT}/restore?language=hi"
    assert restore.button.get_text(strip=True) == "Go back to the built-in Hindi text"
    back = client.post(restore["action"])
    assert back.headers["Location"] == HINDI
    assert _choices(_page(client.get(HINDI)))["hi"][1] == "Built-in text"
    assert [e.detail for e in audited(app, "mail_template.update")
            + audited(app, "mail_template.restore")] == [
        {"template": "merchant_link", "language": "hi"}] * 2
    with app.app_context():
        assert not templates.current("merchant_link", "hi").customised


def test_an_error_in_hindi_is_beside_its_field_and_keeps_what_was_typed(app, client, auth):
    auth.login("admin")
    typed = "नमस्ते $signatory_name, लिंक जल्द आएगा"
    page = _page(client.post(HINDI, data={"subject": HINDI_SUBJECT, "body": typed}))
    assert page.select_one("#body-errors").get_text(strip=True) == (
        "The body must contain $link, or the merchant cannot open the verification page.")
    assert page.select_one("#body")["aria-invalid"] == "true"
    assert _typed(page) == (HINDI_SUBJECT, typed)
    assert _choices(page)["hi"][2], "still the Hindi text"
    empty = _page(client.post(HINDI, data={"subject": "", "body": typed}))
    assert empty.select_one("#subject-errors").get_text(strip=True) == "Write a subject line."
    assert _typed(empty) == ("", typed)
    with app.app_context():
        assert [t.customised for t in templates.versions("merchant_link")] == [False, False]


def test_a_team_email_has_no_language_choice_and_no_other_language(client, auth):
    auth.login("admin")
    page = _page(client.get("/admin/emails/owner_notice"))
    assert page.select_one("nav.language-choice") is None
    assert page.select_one("#text-heading").get_text(strip=True) == "The text"
    assert page.select_one("form input[type=submit]")["value"] == "Save template"
    assert client.get("/admin/emails/owner_notice?language=hi").status_code == 404
    assert client.post("/admin/emails/owner_notice/restore?language=hi").status_code == 404
    assert client.get(f"{EDIT}?language=fr").status_code == 404


def test_only_admins_edit_or_restore(app, client, auth):
    assert client.get(HINDI).headers["Location"].startswith("/login")
    auth.login("ops")
    assert client.get(HINDI).status_code == 403
    assert client.post(HINDI, data={"subject": HINDI_SUBJECT, "body": HINDI_BODY}
                       ).status_code == 403
    assert client.post(f"{EDIT}/restore?language=hi").status_code == 403
    assert client.get("/admin/emails").status_code == 403
    with app.app_context():
        assert not templates.current("merchant_link", "hi").customised
    assert audited(app, "mail_template.update") == []


def test_saving_and_restoring_need_the_pages_csrf_token(csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).login("admin")
    data = {"subject": HINDI_SUBJECT, "body": HINDI_BODY}
    assert csrf_client.post(HINDI, data=data).status_code == 400
    with csrf_app.app_context():
        assert not templates.current("merchant_link", "hi").customised
    page = _page(csrf_client.get(HINDI))
    token = page.select_one("form input[name=csrf_token]")["value"]
    assert csrf_client.post(HINDI, data={**data, "csrf_token": token}).status_code == 302
    restore = _page(csrf_client.get(HINDI)).select_one("form.restore-form")
    assert csrf_client.post(restore["action"]).status_code == 400
    with csrf_app.app_context():
        assert templates.current("merchant_link", "hi").customised
    restored = csrf_client.post(restore["action"], data={
        "csrf_token": restore.select_one("input[name=csrf_token]")["value"]})
    assert restored.status_code == 302
    with csrf_app.app_context():
        assert not templates.current("merchant_link", "hi").customised
