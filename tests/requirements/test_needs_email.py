"""Emailing a merchant what they will need: before step 1 from the new-merchant page's choice,
and from the merchant's summary with the rows still open; in the merchant's language, audited,
every refusal beside its field with what was typed kept."""

from __future__ import annotations

from urllib.parse import urlencode

from bs4 import BeautifulSoup

from portal.core.config import SETTINGS_EXTENSION
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser
from tests.support.mail import body_of
from tests.support.team import audited
from tests.wizard.support import send_through_pages

CHOICE = {"need-entityType": "PARTNERSHIP_FIRM", "need-sector": "FOOD_AND_BEVERAGES",
          "need-products": "DOMESTIC_CARDS_UPI_AND_INB"}
ADDRESS = "owner@lotus.example.com"


def _email_page(browser, choice=CHOICE):
    new = browser.get("/merchants/new?" + urlencode(choice))
    link = new.soup.find("a", string="Email this list to the merchant")
    assert link is not None, "the new-merchant page offers to email its list"
    return browser.get(link["href"])


def _error(page, field: str) -> str:
    error = page.soup.select_one(f"#{field}-errors")
    assert error is not None, page.soup.get_text(" ", strip=True)[:600]
    return error.get_text(" ", strip=True)


def test_the_new_merchant_pages_list_is_emailed_before_anything_is_typed(browser, app, mail_sink):
    page = _email_page(browser)
    listed = {li["data-requirement"] for li in page.soup.select(".requirements-list li")}
    assert {"partnership_deed", "authorisation_letter", "fssai_licence", "website_refund"} <= listed
    page = browser.submit(page, {"email": ADDRESS, "name": "Ravi Mehta",
                                 "business": "Lotus Foods"}, action="", selector="form.needs-email")
    assert page.response.request.path == "/merchants/new"
    assert page.response.request.args.get("need-sector") == "FOOD_AND_BEVERAGES"  # same choice
    assert "emailed to o***@lotus.example.com" in page.soup.select_one(".flash").get_text()
    [message] = mail_sink.messages()
    assert message["To"] == ADDRESS
    assert message["Subject"].startswith("What Lotus Foods will need to onboard with ")
    body = body_of(message)
    assert body.startswith("Dear Ravi Mehta,")
    assert "- The partnership deed\n" in body
    assert "- An FSSAI licence\n" in body
    assert "(if the authorised signatory is not one of the partners)" in body
    [event] = audited(app, "requirements.email")
    assert event.merchant_id is None
    assert event.detail["email"] == "o***@lotus.example.com"
    assert "fssai_licence" in event.detail["needs"] and ADDRESS not in str(event.detail)


def test_the_email_is_written_in_the_language_chosen(browser, mail_sink):
    page = _email_page(browser)
    browser.submit(page, {"email": ADDRESS, "language": "hi"}, action="",
                   selector="form.needs-email")
    [message] = mail_sink.messages()
    body = body_of(message)
    assert body.startswith("प्रिय ")
    assert "- FSSAI लाइसेंस\n" in body
    assert "साझेदारी का डीड" in body and "partnership deed" not in body
    assert "आपका कारोबार" in message["Subject"]  # no business name typed


def test_an_address_that_is_not_one_is_refused_beside_the_field_and_the_typing_kept(
        browser, mail_sink):
    page = browser.submit(_email_page(browser), {"email": "owner at lotus", "name": "Ravi"},
                          action="", selector="form.needs-email")
    assert page.response.status_code == 200
    assert _error(page, "email") == "Enter an email address like name@example.com."
    assert page.soup.select_one("input[name='name']")["value"] == "Ravi"
    assert page.soup.select_one("input[name='email']")["value"] == "owner at lotus"
    assert mail_sink.messages() == []


def test_a_mail_server_that_cannot_be_reached_is_said_beside_the_address(browser, app,
                                                                       closed_port):
    page = _email_page(browser)
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        mail_host="127.0.0.1", mail_port=int(closed_port.rsplit(":", 1)[1]))
    page = browser.submit(page, {"email": ADDRESS, "name": "Ravi"}, action="",
                          selector="form.needs-email")
    assert "The email could not be sent" in _error(page, "email")
    assert page.soup.select_one("input[name='email']")["value"] == ADDRESS
    assert audited(app, "requirements.email")[0].outcome == "failed"


def test_the_summary_emails_only_what_is_still_needed_to_the_signatory(browser, app, mail_sink):
    merchant_id = send_through_pages(browser, ("business", "owners", "bank", "signatory"))
    summary = browser.get(f"/merchants/{merchant_id}")
    link = summary.soup.find("a", string="Email what is still needed to the merchant")
    page = browser.get(link["href"])
    listed = {li["data-requirement"] for li in page.soup.select(".requirements-list li")}
    assert "bank_account" not in listed  # step 4 was sent: in hand
    signatory = scenarios.form_data(scenarios.HAPPY, "signatory")["contact"]["email"]
    assert page.soup.select_one("input[name='email']")["value"] == signatory
    browser.submit(page, {}, action="", selector="form.needs-email")
    [message] = mail_sink.messages()
    assert message["To"] == signatory
    assert "The bank account's details" not in body_of(message)
    assert audited(app, "requirements.email")[0].merchant_id == merchant_id


def test_the_admins_version_of_the_email_must_keep_its_list(auth, client):
    auth.login("admin")
    page = Browser(client).get("/admin/emails/merchant_needs")
    assert "$needs" in page.soup.select_one(".placeholders").get_text()
    response = client.post("/admin/emails/merchant_needs", data={
        "subject": "For $business_name", "body": "Hello $signatory_name, see you soon."})
    assert BeautifulSoup(response.data, "html.parser").select_one("#body-errors").get_text(
        strip=True) == ("The body must contain $needs, or the merchant does not learn what to "
                        "gather.")


def test_with_nothing_chosen_the_list_is_what_every_merchant_needs(browser):
    page = _email_page(browser, {})
    assert "No entity type, category or products were chosen" in page.soup.get_text()
    assert "partnership_deed" not in {li["data-requirement"]
                                      for li in page.soup.select(".requirements-list li")}
