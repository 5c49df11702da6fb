"""The email that carries a payment link, in the customer's words: who asks them to pay, how
much, for which order, until when, and that the amount is held before it is charged."""

from __future__ import annotations

from email.message import EmailMessage

from portal.core.config import Settings
from portal.core.mail.sender import compose
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.domain.payments.wording import money


def customer_name(payment: Payment) -> str:
    """The customer's name as the hold's billing details give it (empty when they do not)."""
    billing = (payment.request_payload.get("paymentData") or {}).get("billingData") or {}
    return " ".join(str(billing.get(part) or "").strip()
                    for part in ("firstName", "lastName")).strip()


def letter(settings: Settings, link: PaymentLink, payment: Payment, merchant: Merchant,
           url: str) -> EmailMessage:
    """The message to the hold's customer with the link ``url``."""
    assert payment.customer_email is not None  # a link is only made for a hold with one
    shop, amount = merchant.public_name, money(payment.amount, payment.currency)
    greeting = f"Dear {customer_name(payment)}," if customer_name(payment) else "Hello,"
    body = (
        f"{greeting}\n\n"
        f"{shop} asks you to pay {amount} for order {payment.merchant_txn_id}.\n\n"
        f"Pay on the secure payment page:\n\n{url}\n\n"
        f"Your card is authorised now and charged once {shop} confirms your order; until "
        f"then the amount is only held.\n\n"
        f"The link can be used once and works until {link.expires_at:%Y-%m-%d %H:%M} UTC. "
        f"If you did not expect this email, you can ignore it.\n\n"
        f"{settings.partner_name}, for {shop}\n")
    return compose(settings, payment.customer_email, f"{shop} asks you to pay {amount}", body)
