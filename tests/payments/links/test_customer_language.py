"""The customer's language switch on a payment link's page: shown in every standing of the page
(waiting, paid, used, not available, expired, withdrawn), each language named as its readers
write it; the pick kept with the link, audited, and followed by the link's page and the page
after paying; a forged token, a code not in the table and a post without its CSRF token keep
nothing."""

from __future__ import annotations

from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.payment_link import PaymentLink
from tests.payments.links.support import (
    hold_page,
    link_row,
    merchant_speaks,
    open_page,
    pick_language,
    press_continue,
    sent_link,
)
from tests.payments.support import pay, submit
from tests.support.browser import Page
from tests.support.pausing import stop_now

PICKED = "payment_link.language"


def switch_of(page: Page) -> list[tuple[str, str, str]]:
    """The switch as shown: (what it is, the language's code, its name), the current language
    first among the buttons as the table orders them."""
    form = page.soup.select_one("form.language-switch")
    assert form is not None, page.text()
    assert form.find("input", attrs={"name": "csrf_token"}) is not None
    shown = [("current", tag["lang"], tag.get_text(strip=True))
             for tag in form.select(".language-switch__current")]
    return shown + [("button", tag["value"], tag.get_text(strip=True))
                    for tag in form.select("button[name=language]")]


def picks(app) -> list[tuple[int | None, dict, str]]:
    """The audited picks: (merchant, detail, who)."""
    with app.app_context():
        return [(event.merchant_id, event.detail, event.actor_label) for event in
                db.session.scalars(select(AuditEvent).where(AuditEvent.action == PICKED))]


def test_a_hindi_merchants_link_page_offers_english_by_its_name(app, browser, merchant_id,
                                                                credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    _, link = sent_link(browser, merchant_id, mail_sink)
    page = open_page(app.test_client(), link)
    assert page.soup.html["lang"] == "hi"
    assert switch_of(page) == [("current", "hi", "हिन्दी"), ("button", "en", "English")]
    form = page.soup.select_one("form.language-switch")
    assert form["action"] == link.replace("?", "/language?", 1)
    assert form.select_one(".language-switch__label").get_text() == "भाषा:"
    assert form["aria-label"] == "भाषा"


def test_the_pick_is_kept_audited_and_the_link_page_follows_it(app, browser, merchant_id,
                                                               credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    answer = pick_language(customer, link, "en")
    assert answer.status_code == 303
    assert answer.headers["Location"] == link
    assert link_row(app, payment_id).language == "en"
    link_id = link_row(app, payment_id).id
    [(merchant, detail, who)] = picks(app)
    assert (merchant, who) == (merchant_id, "customer link")
    assert detail["link"] == link_id and detail["language"] == "en"
    page = open_page(customer, link)
    assert page.soup.html["lang"] == "en"
    assert page.soup.h1.get_text() == "Pay 1,500 INR to Chai Point"
    assert switch_of(page) == [("current", "en", "English"), ("button", "hi", "हिन्दी")]
    assert open_page(app.test_client(), link).soup.html["lang"] == "en"  # kept on the link
    staff = hold_page(browser, payment_id).soup.select_one("[data-field='link-language']")
    assert staff.get_text() == "English, picked on the link's page"


def test_the_return_page_and_the_paid_page_are_in_the_picked_language(
        app, browser, merchant_id, credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    _, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    pick_language(customer, link, "en")
    returned = pay(press_continue(customer, link).headers["Location"])
    back = customer.post(returned.path, data={"x-gl-token": returned.token})
    result = BeautifulSoup(back.data, "html.parser")
    assert back.status_code == 200 and result.html["lang"] == "en"
    assert result.h1.get_text() == "Thank you: your payment is authorised"
    paid = open_page(customer, link)
    assert paid.soup.html["lang"] == "en"
    assert paid.soup.h1.get_text() == "Thank you: your payment is authorised"
    assert switch_of(paid)[0] == ("current", "en", "English")
    pick_language(customer, link, "hi")  # the paid page's switch works as well
    assert open_page(customer, link).soup.h1.get_text() == "धन्यवाद: आपका पेमेंट मंज़ूर हो गया है"


def test_a_used_link_and_a_paused_merchants_link_have_the_switch(app, browser, merchant_id,
                                                                 credentials, mail_sink):
    _, used = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    press_continue(customer, used)  # the hosted page opened, never paid
    assert switch_of(open_page(customer, used))[0] == ("current", "en", "English")
    _, paused = sent_link(browser, merchant_id, mail_sink)
    assert stop_now(app, merchant_id).ok
    page = open_page(customer, paused)
    assert page.soup.select_one(".payment-not-available") is not None
    assert switch_of(page)[0] == ("current", "en", "English")
    assert pick_language(customer, paused, "hi").status_code == 303
    again = open_page(customer, paused)
    assert again.soup.html["lang"] == "hi" and again.soup.select_one(".payment-not-available")


def test_an_expired_link_is_drawn_in_its_language_and_takes_a_pick(portal_clock, app, browser,
                                                                    merchant_id, credentials,
                                                                    mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    portal_clock.advance(200 * 3600)  # past PAYMENT_LINK_HOURS and the token's own age
    customer = app.test_client()
    expired = open_page(customer, link)
    assert expired.response.status_code == 410 and expired.soup.html["lang"] == "hi"
    assert "इस पेमेंट लिंक का समय ख़त्म हो गया है।" in expired.text()
    assert switch_of(expired)[0] == ("current", "hi", "हिन्दी")
    assert pick_language(customer, link, "en").status_code == 303
    assert link_row(app, payment_id).language == "en"
    again = open_page(customer, link)
    assert again.response.status_code == 410 and again.soup.html["lang"] == "en"
    assert "This payment link has expired." in again.text()


def test_a_withdrawn_link_keeps_its_language_and_switch(app, browser, merchant_id, credentials,
                                                        mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    pick_language(customer, link, "en")
    submit(browser, hold_page(browser, payment_id), "form.link-cancel", {"confirm": "y"})
    withdrawn = open_page(customer, link)
    assert withdrawn.response.status_code == 410 and withdrawn.soup.html["lang"] == "en"
    assert "This payment link was withdrawn." in withdrawn.text()
    assert switch_of(withdrawn)[0] == ("current", "en", "English")


def test_a_forged_token_or_another_links_is_refused_and_keeps_nothing(
        app, browser, merchant_id, credentials, mail_sink):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    other_id, other = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    forged = pick_language(customer, link.split("?")[0] + "?token=forged", "hi")
    assert forged.status_code == 403
    not_its_own = pick_language(customer, link.split("?")[0] + "?" + other.split("?")[1], "hi")
    assert not_its_own.status_code == 403
    refused = BeautifulSoup(forged.data, "html.parser")
    assert refused.select_one("form.language-switch") is None  # it knows no link to keep it on
    assert (link_row(app, payment_id).language, link_row(app, other_id).language) == (None, None)
    assert picks(app) == []


def test_a_code_not_in_the_table_changes_nothing(app, browser, merchant_id, credentials,
                                                 mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    assert pick_language(customer, link, "fr").status_code == 303
    assert pick_language(customer, link, "").status_code == 303
    assert link_row(app, payment_id).language is None
    assert picks(app) == []
    assert open_page(customer, link).soup.html["lang"] == "hi"


def test_a_code_kept_that_left_the_table_falls_back_to_the_merchants(app, browser, merchant_id,
                                                                      credentials, mail_sink):
    merchant_speaks(app, merchant_id, "hi")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    with app.app_context():
        row = db.session.scalar(select(PaymentLink).where(PaymentLink.payment_id == payment_id))
        row.language = "xx"
        db.session.commit()
    assert open_page(app.test_client(), link).soup.html["lang"] == "hi"


def test_the_switch_needs_its_csrf_token(csrf_app, browser, merchant_id, credentials,
                                         mail_sink):
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = csrf_app.test_client()
    page = open_page(customer, link)
    assert pick_language(customer, link, "hi").status_code == 400
    assert link_row(csrf_app, payment_id).language is None
    token = page.soup.select_one("form.language-switch input[name=csrf_token]")["value"]
    assert pick_language(customer, link, "hi", csrf_token=token).status_code == 303
    assert link_row(csrf_app, payment_id).language == "hi"
