"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from typing import Any

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_language
from tests.payments.support import backend, hold_values, submit
from tests.support.browser import Browser, Page
from tests.support.mail import link_in

#: The order a link is sent for: the suite's hold, its customer asha@example.com.
CUSTOMER = "asha@example.com"


def email_link(browser: Browser, merchant_id: int, **changes: Any):
    """Fill the new-hold form and press "Email the customer a payment link" (not followed)."""
    page = browser.get(f"/merchants/{merchant_id}/payments/new")
    return submit(browser, page, "form.hold-form", hold_values(**changes), action="email_link",
                  follow=False)


def sent_link(browser: Browser, merchant_id: int, mail_sink, **changes: Any) -> tuple[int, str]:
    """A hold sent to its customer as a link: (payment id, the path and query the email
    links to)."""
    response = email_link(browser, merchant_id, **changes)
    assert response.status_code == 302, response.data
    payment_id = int(response.headers["Location"].rsplit("/", 1)[1])
    return payment_id, link_in(mail_sink.messages()[-1])


def merchant_speaks(app, merchant_id: int, code: str) -> int:
    """Ops set the merchant's pages and emails to ``code``; the merchant's id."""
    with app.app_context():
        merchant_language.set_default(db.session.get(Merchant, merchant_id), code,
                                      Actor("ops@example.com"))
    return merchant_id


def pick_language(customer, path: str, code: str, **form: str):
    """The customer presses ``code`` on the switch of the link's page at ``path`` (not
    followed)."""
    return customer.post(path.replace("?", "/language?", 1), data={"language": code, **form})


def link_row(app, payment_id: int) -> PaymentLink:
    """The hold's link, read fresh."""
    with app.app_context():
        link = db.session.scalar(select(PaymentLink).where(PaymentLink.payment_id == payment_id))
        assert link is not None
        db.session.expunge(link)
        return link


def payment_of(app, payment_id: int) -> Payment:
    """The hold, read fresh."""
    with app.app_context():
        payment = db.session.get(Payment, payment_id)
        assert payment is not None
        db.session.expunge(payment)
        return payment


def open_page(customer, path: str) -> Page:
    """The customer's GET of the link."""
    response = customer.get(path)
    return Page(response, BeautifulSoup(response.data, "html.parser"))


def press_continue(customer, path: str):
    """The customer presses "Continue to the secure payment page" (not followed)."""
    return customer.post(path, data={})


def hold_page(browser: Browser, payment_id: int) -> Page:
    """The hold's page as the staff see it."""
    return browser.get(f"/payments/{payment_id}")


def standing_on(page: Page) -> str:
    """What the hold's page says of its link."""
    found = page.soup.select_one("section.payment-link")
    assert found is not None, page.text()
    return found["data-standing"]


def counting_initiates(monkeypatch: pytest.MonkeyPatch, sandbox) -> list[str]:
    """Record the merchantTxnId of every initiate the sandbox takes: each one mints a
    checkout."""
    payments = backend(sandbox)
    original = payments.initiate
    calls: list[str] = []

    def counted(mid, request):
        calls.append(request.merchantTxnId)
        return original(mid, request)

    monkeypatch.setattr(payments, "initiate", counted)
    return calls
