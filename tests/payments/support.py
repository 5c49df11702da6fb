"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.payment import Payment, PaymentCredentials
from portal.core.models.user import User
from portal.domain.payments import polling
from portal.domain.payments.status_poll import poll_once
from portal.sandbox.payments.backend import PaymentsBackend
from tests.support.browser import Browser, Page, flatten, form_values
from tests.support.rows import fresh

APPROVING_CARD = "4111111111111111"


DECLINED_CARD = "4000000000000002"


HOLD = {"paymentData": {"totalAmount": "1500.00", "txnCurrency": "INR", "billingData": {
    "firstName": "Asha", "lastName": "Rao", "emailId": "asha@example.com", "callingCode": "+91",
    "phoneNumber": "9876543210", "addressStreet1": "12 MG Road", "addressCity": "Mumbai",
    "addressState": "Maharashtra", "addressPostalCode": "400001", "addressCountry": "IND"}}}


def add_merchant(app, status: str | None, name: str = "Chai Point") -> int:
    """A merchant row with an onboarding status, counted on the dashboard as the portal counts
    one it starts; returns its id."""
    with app.app_context():
        merchant = Merchant(external_onboarding_id=f"pop-{name.replace(' ', '')}-{status}",
                            onboarding_id=f"pg_onboard_{name.replace(' ', '')}{status}",
                            pan="ABCCE1234F", display_name=name, legal_name=name,
                            status=status, create_state=CreateState.CREATED)
        db.session.add(merchant)
        db.session.commit()
        return merchant.id


@pytest.fixture
def merchant_id(app) -> int:
    """An APPROVED merchant."""
    return add_merchant(app, "APPROVED")


@pytest.fixture
def browser(auth, client) -> Browser:
    """A browser signed in as an admin (who may also set up credentials)."""
    auth.login("admin")
    return Browser(client)


def submit(browser: Browser, page: Page, selector: str, changes: dict[str, Any] | None = None,
           action: str | None = None, follow: bool = True):
    """Post a form of ``page`` as shown, with ``changes`` and a pressed button."""
    form = page.form(selector)
    values = {**form_values(form), **(changes or {})}
    if action:
        values["action"] = action
    response = browser.client.post(form.get("action") or page.response.request.path,
                                   data=values, follow_redirects=follow)
    return Page(response, BeautifulSoup(response.data, "html.parser")) if follow else response


@pytest.fixture
def credentials(browser: Browser, merchant_id: int) -> Page:
    """Credentials generated through the page with the sandbox's prefilled MID and kid."""
    page = browser.get(f"/merchants/{merchant_id}/payments/credentials")
    return submit(browser, page, "form.credentials-form")


def hold_values(**changes: Any) -> dict[str, Any]:
    """The hold form's fields for HOLD, some changed (None drops a field)."""
    values = {**flatten(HOLD), **changes}
    return {k: v for k, v in values.items() if v is not None}


def post_hold(browser: Browser, merchant_id: int, **changes: Any):
    """Fill and send the new-hold form; the response is not followed."""
    page = browser.get(f"/merchants/{merchant_id}/payments/new")
    return submit(browser, page, "form.hold-form", hold_values(**changes), action="send",
                  follow=False)


@dataclass(frozen=True)
class Return:
    """The hosted page's auto-submitted return form."""

    path: str
    token: str
    status_text: str


def pay(redirect_url: str, card: str = APPROVING_CARD, expiry: str = "12/39") -> Return:
    """Pay on the sandbox's hosted page and read the return form it auto-submits."""
    http = requests.Session()
    page = BeautifulSoup(http.get(redirect_url, timeout=5).text, "html.parser")
    form = page.select_one("form[aria-labelledby=card-heading]")
    assert form is not None
    values = {**form_values(form), "number": card, "expiry": expiry, "cvv": "123",
              "name": "Asha Rao"}
    answer = http.post(urlsplit(redirect_url)._replace(query="").geturl(), data=values, timeout=5)
    back = BeautifulSoup(answer.text, "html.parser").select_one("#return-form")
    assert back is not None, answer.text
    token = back.find("input", attrs={"name": "x-gl-token"})
    return Return(urlsplit(back["action"]).path, token["value"],
                  BeautifulSoup(answer.text, "html.parser").get_text(" "))


def authorised_payment(browser: Browser, merchant_id: int, card: str = APPROVING_CARD,
                       **changes: Any) -> tuple[int, Page]:
    """A hold taken, paid on the hosted page and returned: (payment id, the result page)."""
    response = post_hold(browser, merchant_id, **changes)
    assert response.status_code == 302, response.data
    returned = pay(response.headers["Location"], card)
    result = browser.client.post(returned.path, data={"x-gl-token": returned.token})
    with browser.client.application.app_context():
        payment = db.session.query(Payment).order_by(Payment.id.desc()).first()
        assert payment is not None
        return payment.id, Page(result, BeautifulSoup(result.data, "html.parser"))


def payment_row(app, payment_id: int) -> Payment:
    """The payment row, read fresh."""
    return fresh(app, Payment, id=payment_id)


def credentials_row(app, merchant_id: int) -> PaymentCredentials:
    """The merchant's stored credentials, read fresh."""
    return fresh(app, PaymentCredentials, merchant_id=merchant_id)


def backend(sandbox) -> PaymentsBackend:
    """The sandbox's payments backend."""
    return sandbox.state.payments


def act(browser: Browser, payment_id: int, action: str, amount: str | None = None,
        confirm: bool = True) -> Page:
    """Press an action's button on the payment's page (ticking its confirmation box)."""
    page = browser.get(f"/payments/{payment_id}")
    changes: dict[str, Any] = {"confirm": "y"} if confirm else {}
    if amount is not None:
        changes["amount"] = amount
    return submit(browser, page, f"form.action--{action}", changes)


def counting(monkeypatch: pytest.MonkeyPatch, sandbox, operation: str) -> list[str]:
    """Record every call of a sandbox backend operation (refused ones too)."""
    payments = backend(sandbox)
    original: Callable = getattr(payments, operation)
    calls: list[str] = []

    def counted(mid, gid, request):
        calls.append(gid)
        return original(mid, gid, request)

    monkeypatch.setattr(payments, operation, counted)
    return calls


def flashes(page) -> str:
    """The text of every flash message on the page."""
    return " ".join(p.get_text(" ", strip=True) for p in page.soup.select(".flash"))


#: Sandbox scenario cards (docs/developer/sandbox.md).
CAPTURE_DECLINED_CARD = "4000000000000259"


CAPTURE_QUEUED_CARD = "4000000000000275"


LATER_CARD = "4000000000000283"


def own_merchant(app, merchant_id: int, email: str = "admin@example.com") -> None:
    """Make the signed-in admin the merchant's owner (notices go to owners)."""
    with app.app_context():
        user = db.session.scalar(select(User).where(User.email == email))
        db.session.get(Merchant, merchant_id).owner_id = user.id
        db.session.commit()


def poll(app) -> None:
    """One run of the poll as the worker does it: its next pass, no sooner than the gateway's
    5 seconds after the payment was last read (the customer's return reads it too)."""
    with app.app_context():
        poll_once(app.extensions["portal_settings"], clock.utcnow() + polling.SHORTEST_GAP)
