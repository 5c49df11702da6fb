"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from bs4 import BeautifulSoup
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from portal.core.db import db
from portal.core.models import ApprovalRequest
from tests.support.browser import Page, form_values


def a_pem() -> str:
    return rsa.generate_private_key(65537, 2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()


REASON = "Order 4411 returned in full; ticket SUP-208"


def refund(browser, payment_id: int, amount: str, **changes: str) -> Page:
    """Fill the refund form of the payment's page with ``amount`` and ``changes``; follow."""
    page = browser.get(f"/payments/{payment_id}")
    form = page.form("form.action--refund")
    values = {**form_values(form), "confirm": "y", "amount": amount, **changes}
    response = browser.client.post(form["action"], data=values, follow_redirects=True)
    return Page(response, BeautifulSoup(response.data, "html.parser"))


def requests_of(app) -> list[ApprovalRequest]:
    with app.app_context():
        rows = db.session.query(ApprovalRequest).order_by(ApprovalRequest.id).all()
        for row in rows:
            db.session.expunge(row)
        return rows
