"""The email that carries a payment link, in the customer's words and the link's language (the
merchant's, until the customer picks one on the link's page): who asks them to pay, how much, for
which order, until when, and that the amount is held before it is charged."""

from __future__ import annotations

from email.message import EmailMessage

from flask_babel import force_locale
from flask_babel import gettext as _

from portal.core.config import Settings
from portal.core.mail.sender import compose
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.domain.payments.links import customer_language
from portal.domain.payments.wording import money


def customer_name(payment: Payment) -> str:
    """The customer's name as the hold's billing details give it (empty when they do not)."""
    billing = (payment.request_payload.get("paymentData") or {}).get("billingData") or {}
    return " ".join(str(billing.get(part) or "").strip()
                    for part in ("firstName", "lastName")).strip()


def letter(settings: Settings, link: PaymentLink, payment: Payment, merchant: Merchant,
           url: str) -> EmailMessage:
    """The message to the hold's customer with the link ``url``, in the link's language: the
    first email goes before any pick, so in the merchant's."""
    assert payment.customer_email is not None  # a link is only made for a hold with one
    shop, amount = merchant.public_name, money(payment.amount, payment.currency)
    name = customer_name(payment)
    with force_locale(customer_language.of_link(link, merchant)):
        paragraphs = (
            _("Dear %(name)s,", name=name) if name else _("Hello,"),
            _("%(business)s asks you to pay %(amount)s for order %(order)s.", business=shop,
              amount=amount, order=payment.merchant_txn_id),
            _("Pay on the secure payment page:"), url,
            _("Your card is authorised now and charged once %(business)s confirms your order; "
              "until then the amount is only held.", business=shop),
            _("The link can be used once and works until %(time)s UTC. If you did not expect "
              "this email, you can ignore it.", time=link.expires_at.strftime("%Y-%m-%d %H:%M")),
            _("%(partner)s, for %(business)s", partner=settings.partner_name, business=shop))
        subject = _("%(business)s asks you to pay %(amount)s", business=shop, amount=amount)
    return compose(settings, payment.customer_email, subject, "\n\n".join(paragraphs) + "\n")
