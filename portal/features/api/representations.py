"""The portal's rows as the API's typed answers, and the lists' opaque cursors."""

from __future__ import annotations

import base64
import binascii

from portal.core.label_tables import Kind
from portal.core.labels import label
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.onboarding.product_rows import product_rows
from portal.domain.payments import actions
from portal.domain.payments.service import refunds_of
from portal.features.api.problems import Problem
from portal.features.api.schemas import MerchantOut, PaymentOut, ProductState, RefundOut
from portal.gateway.shapes import FieldError


def merchant_out(merchant: Merchant) -> MerchantOut:
    """``merchant`` as the API shows it: status, checklist and each product's state."""
    rows = product_rows(merchant)
    return MerchantOut(
        id=merchant.id, externalOnboardingId=merchant.external_onboarding_id,
        onboardingId=merchant.onboarding_id, name=merchant.name, status=merchant.status,
        statusLabel=label(merchant.status), createState=merchant.create_state,
        checklist={str(k): str(v) for k, v in (merchant.checklist or {}).items()},
        documentsOutstanding=list(merchant.documents_outstanding or []),
        products=None if rows is None else [
            ProductState(product=r.product, name=r.name, standing=r.standing, words=r.words,
                         acceptedAt=r.accepted_at, waitsFor=r.waits_for, heldUpBy=r.held_up_by)
            for r in rows],
        createdAt=merchant.created_at, lastActivityAt=merchant.last_activity_at)


def payment_out(payment: Payment) -> PaymentOut:
    """``payment`` as the API shows it, with its refunds and the actions it allows now."""
    refunds = refunds_of(payment)
    return PaymentOut(
        id=payment.id, merchantId=payment.merchant_id, merchantTxnId=payment.merchant_txn_id,
        gid=payment.gid, status=payment.status,
        statusLabel=label(payment.status, Kind.PAYMENT_STATUS), amount=payment.amount,
        currency=payment.currency, capturedAmount=payment.captured_amount,
        redirectUrl=payment.redirect_url,
        refunds=[RefundOut(merchantTxnId=r.merchant_txn_id, amount=r.amount, status=r.state,
                           createdAt=r.created_at) for r in refunds],
        actionsAllowed=[API_ACTION_NAMES[a] for a in actions.offered(payment, refunds)],
        createdAt=payment.created_at)


#: The API's word for each action (a reversal is a release of the hold).
API_ACTION_NAMES = {actions.CAPTURE: "capture", actions.REVERSE: "release",
                    actions.REFUND: "refund"}


def cursor_after(row_id: int) -> str:
    """The opaque cursor of the page after the row ``row_id``."""
    return base64.urlsafe_b64encode(f"after:{row_id}".encode()).decode().rstrip("=")


def read_cursor(cursor: str) -> int:
    """The row id a cursor continues after (0: from the start); 422 for one not given out."""
    if not cursor:
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    kind, _, number = text.partition(":")
    if kind != "after" or not number.isdigit() or len(number) > 10:
        raise Problem(422, "This cursor was not given out by this API.",
                      [FieldError("cursor", "Use the nextCursor of the previous page.")])
    return int(number)
