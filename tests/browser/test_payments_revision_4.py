"""Revision 4 in Chromium, the sandbox speaking the gateway docs' dialect (order ids, transaction
ids and answer ids all different; a reused merchantTxnId answered as a duplicate): a hold whose
initiate answer was lost and is sent again stays one payment at the gateway and in the portal;
a payment declined for now and authorised later lands on its owner's worklist; a capture's own
answer gid is on the payment's page."""

# ruff: noqa: F811
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.user import User
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.browser.payment_steps import act, fill_hold_form, hold_and_pay, merchant_id  # noqa: F401
from tests.browser.support import Axe, Servers, screenshot
from tests.payments.support import APPROVING_CARD, LATER_CARD
from tests.support.sandbox import speak
from tests.support.workers import run_worker

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def docs(sandbox) -> str:
    """The sandbox speaks the gateway docs' dialect."""
    return speak(sandbox, "docs")


def test_a_lost_initiate_sent_again_is_one_payment(page: Page, servers: Servers, app,
                                                  merchant_id: int, axe: Axe) -> None:
    servers.sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    page.goto(f"/merchants/{merchant_id}/payments/new")
    fill_hold_form(page)
    page.get_by_role("button", name="Create hold and go to the checkout page").click()
    expect(page.locator(".outcome-unknown")).to_contain_text("The first attempt may have created")
    screenshot(page, "hold-outcome-unknown")
    axe.check(page)
    page.get_by_role("button", name="Send again with the same merchantTxnId").click()
    expect(page.locator("body")).to_contain_text("one hold, not two")
    axe.check(page)
    assert len(servers.sandbox.state.payments._payments) == 1
    page.goto(f"/merchants/{merchant_id}/payments")
    expect(page.locator("tr[data-payment]")).to_have_count(1)
    with app.app_context():
        [payment] = db.session.scalars(select(Payment)).all()
        assert payment.gid is not None and payment.gid.startswith("gl_o-")


def test_a_decline_for_now_authorised_later_is_on_the_owners_worklist(
        page: Page, servers: Servers, app, csrf_app, merchant_id: int, axe: Axe) -> None:
    with app.app_context():
        admin = db.session.scalar(select(User).where(User.email == "admin@example.com"))
        db.session.get(Merchant, merchant_id).owner_id = admin.id
        db.session.commit()
    hold_and_pay(page, servers, merchant_id, LATER_CARD)
    expect(page.locator(".soft-decline")).to_contain_text("Declined for now")
    screenshot(page, "payment-declined-for-now")
    axe.check(page)
    servers.sandbox.clock.advance(31 * 60)  # the sandbox's issuer approves it after all
    with app.app_context():  # the worker's next pass, past the gateway's 5 seconds between reads
        for payment in db.session.scalars(select(Payment)):
            payment.last_read_at = payment.next_poll_at = clock.utcnow() - timedelta(seconds=6)
        db.session.commit()
    assert run_worker(csrf_app) >= 1
    page.goto("/worklist")
    item = page.locator("li[data-reason='hold_to_look_at']")
    expect(item).to_contain_text("Capture it or release it")
    screenshot(page, "worklist-late-authorisation")
    axe.check(page)
    item.get_by_role("link", name="Open the hold").click()
    expect(page.locator(".late-authorisation")).to_contain_text("Authorised after all")
    expect(page.locator("[data-field='status']")).to_have_attribute("data-status", "AUTHORIZED")
    screenshot(page, "payment-authorised-late")
    axe.check(page)


def test_a_captures_own_answer_gid_is_on_the_payment_page(page: Page, servers: Servers,
                                                          merchant_id: int, axe: Axe) -> None:
    hold_and_pay(page, servers, merchant_id, APPROVING_CARD)
    act(page, "capture")
    expect(page.locator("[data-field='capture-gid']")).to_have_text(
        re.compile(r"^gl_[0-9a-f]{16}$"))
    order = page.locator("[data-field='gid']").inner_text()
    assert page.locator("[data-field='capture-gid']").inner_text() not in order
    screenshot(page, "payment-capture-answer-gid")
    axe.check(page)
