"""A team's day in Chromium: an ops user signs in to their work for today, opens a merchant the
gateway asked more of, notes it, hands it to a colleague with a note; the colleague finds it
on their list, reads the notice (also emailed by the worker) and chooses a daily digest; an
admin sees who is working on what. Every page axe-clean, none wider than a 375 px phone with
long names; ``PORTAL_SCREENSHOTS`` saves each state (empty, error, read-only, long values) at
1280 and 375 px."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.user import User
from portal.domain.merchant_mail import templates
from portal.features.notifications.inbox import PER_PAGE
from tests.browser.support import PHONE, Axe, Servers, Widths, log_in, screenshot
from tests.support.mail import body_of, mail_sink, mailing
from tests.support.team import make_merchant
from tests.support.workers import run_worker

__all__ = ["mail_sink"]

pytestmark = pytest.mark.browser

ASHA = "asha.ramakrishnan.onboarding.operations@payments.partner-company.example.co.in"
BALA = "bala@example.com"
LONG_NAME = "Shree Venkateshwara Handloom & Textile Exports (Kanchipuram flagship store)"
NOTE = ("Spoke to Ms Lakshmi Venkataraghavan: the cancelled cheque is on its way by courier "
        "(docket BLR-2026-000123456789); chase it on Monday if it has not arrived.")


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The browser suite's settings, mailing to a loopback sink."""
    return mailing(settings, mail_sink)


def sign_out(page: Page) -> None:
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/login")


def test_an_ops_day_from_the_worklist_to_a_colleague(page: Page, servers: Servers, auth,
                                                     csrf_app, axe: Axe, mail_sink) -> None:
    for email in (ASHA, BALA):
        auth.create("ops", email)
    asked = make_merchant(csrf_app, LONG_NAME, owner=ASHA, status="RFI",
                          documents_outstanding=["CANCELLED_CHEQUE", "BANK_STATEMENT"])
    make_merchant(csrf_app, "Ganga Textiles", owner=ASHA, status="REJECTED")
    widths = Widths(page)

    log_in(page, ASHA)
    expect(page).to_have_url(f"{servers.portal}/worklist")  # ops land on their work
    expect(page.locator(".work-item")).to_have_count(2)
    expect(page.locator(".work-item").first).to_contain_text(
        "The gateway asks for more information: Cancelled cheque, Bank statement.")
    expect(page.get_by_role("link", name="Needs my action 2 waiting")).to_be_visible()
    axe.check(page)
    widths.measure("team-worklist-mine")

    page.get_by_role("link", name=LONG_NAME, exact=True).click()
    expect(page.locator("#owner")).to_contain_text("Owner: " + ASHA + " (you)")
    page.get_by_role("button", name="Add the note").click()  # nothing typed
    expect(page.locator(".field--invalid")).to_contain_text("Write the note first.")
    axe.check(page)
    widths.measure("team-note-error")
    page.get_by_label("Add a note").fill(NOTE)
    page.get_by_role("button", name="Add the note").click()
    expect(page.locator("#owner .note__text")).to_have_text(NOTE)
    axe.check(page)
    widths.measure("team-merchant-owner-and-notes")

    page.get_by_role("link", name="Hand it to a colleague").click()
    page.get_by_label("New owner").select_option(label=BALA)
    page.get_by_label("A note for them (optional)").fill("Over to you while I am on leave.")
    axe.check(page)
    widths.measure("team-hand-over")
    page.get_by_role("button", name="Change the owner").click()
    expect(page.locator(".flash--success")).to_contain_text(f"{BALA} owns {LONG_NAME} now.")
    page.goto("/worklist")
    expect(page.locator(".work-item")).to_have_count(1)  # the rejection stays Asha's
    page.get_by_role("button", name="The merchant was told (Ganga Textiles)").click()
    expect(page.locator(".worklist-summary")).to_contain_text("Nothing needs you now")
    axe.check(page)
    widths.measure("team-worklist-empty")
    sign_out(page)

    log_in(page, BALA)
    expect(page.locator(".work-item")).to_have_count(1)
    expect(page.locator(".work-item__merchant")).to_have_text(LONG_NAME)
    page.get_by_role("link", name="Notices 1 waiting").click()
    notice = page.locator(".notice")
    expect(notice).to_contain_text(f"{ASHA} handed {LONG_NAME} to you")
    expect(notice).to_contain_text("Over to you while I am on leave.")
    axe.check(page)
    widths.measure("team-notices")
    run_worker(csrf_app)  # the notices job emails the hand-over
    [message] = mail_sink.messages()
    assert (message["To"], message["Subject"]) == (BALA, f"{LONG_NAME}: handed to you")
    assert "Over to you while I am on leave." in body_of(message)
    page.reload()
    expect(notice).to_contain_text("Emailed")
    page.get_by_role("button", name="Mark all as read").click()
    expect(page.locator(".notice--unread")).to_have_count(0)

    page.get_by_role("link", name="Your account").click()
    page.get_by_label("Email me one digest a day").check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".flash--success")).to_contain_text("Saved: email me one digest a day.")
    axe.check(page)
    widths.measure("team-account")
    page.goto(f"/merchants/{asked}/notes")
    widths.measure("team-notes-page")
    assert widths.too_wide == {}


def test_an_admin_sees_who_is_working_on_what(page: Page, servers: Servers, auth, csrf_app,
                                              axe: Axe) -> None:
    auth.create("ops", ASHA)
    auth.create("ops", BALA)
    make_merchant(csrf_app, LONG_NAME, owner=ASHA, status="RFI")
    make_merchant(csrf_app, "Lotus Traders", owner=BALA, status="PENDING_REVIEW")
    make_merchant(csrf_app, "Nobody's Traders", status="REJECTED")
    log_in(page, auth.create("admin"), app=csrf_app)
    expect(page).to_have_url(f"{servers.portal}/merchants")  # admins land on the merchants
    page.get_by_role("link", name="Needs my action").click()
    expect(page.locator(".worklist-summary")).to_contain_text("Nothing needs you now")
    page.get_by_role("link", name="Everyone").click()
    rows = page.locator(".team-load tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text(ASHA)
    expect(page.locator(".work-item")).to_have_count(2)
    axe.check(page)
    widths = Widths(page)
    widths.measure("team-worklist-everyone")
    page.goto("/merchants")
    page.get_by_role("link", name="Lotus Traders").click()
    page.get_by_role("link", name="Change the owner").click()
    page.get_by_label("New owner").select_option(label="Nobody")
    page.get_by_role("button", name="Change the owner").click()
    expect(page.locator(".flash--success")).to_contain_text("Nobody owns Lotus Traders now.")
    page.goto("/admin/emails")  # the team's notice and digest texts beside the merchants'
    expect(page.locator(".mail-template")).to_have_count(len(templates.DEFAULTS))
    axe.check(page)
    widths.measure("team-emails")
    assert widths.too_wide == {}


def test_someone_elses_merchant_reads_without_actions(page: Page, servers: Servers, auth,
                                                      csrf_app, axe: Axe) -> None:
    auth.create("ops", BALA)
    merchant = make_merchant(csrf_app, LONG_NAME, owner=BALA, status="IN_PROGRESS")
    log_in(page, auth.create("ops", ASHA))
    page.set_viewport_size(PHONE)
    page.goto(f"/merchants/{merchant}")
    panel = page.locator("#owner")
    expect(panel).to_contain_text(f"Owner: {BALA}")
    expect(panel.get_by_role("button", name="Take it")).to_have_count(0)
    expect(panel.get_by_role("link", name="Change the owner")).to_have_count(0)
    page.goto(f"/merchants/{merchant}/owner")
    expect(page.locator(".owner-change")).to_contain_text(
        f"Only {BALA} or an admin can hand it to someone else.")
    axe.check(page)
    screenshot(page, "team-owner-read-only")


def test_older_notices_are_a_page_away_on_a_phone(page: Page, servers: Servers, auth, csrf_app,
                                                  axe: Axe) -> None:
    auth.create("ops", ASHA)
    merchant = make_merchant(csrf_app, LONG_NAME, owner=ASHA, status="RFI")
    with csrf_app.app_context():
        owner = db.session.scalar(select(User.id).where(User.email == ASHA))
        db.session.add_all(Notice(user_id=owner, merchant_id=merchant, kind=NoticeKind.STATUS,
                                  status="APPROVED" if n else "RFI",
                                  created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=n))
                           for n in range(PER_PAGE + 3))
        db.session.commit()
    widths = Widths(page)
    log_in(page, ASHA)
    page.goto("/notices")
    expect(page.locator(".pagination")).to_contain_text("Page 1 of 2")
    page.get_by_role("link", name="Next").click()
    expect(page.locator(".notice")).to_have_count(3)
    expect(page.locator(".notice").last).to_contain_text("more information requested")
    axe.check(page)
    widths.measure("team-notices-older")
    assert widths.too_wide == {}
