"""Payment link pages: the staff's resend and cancel on a hold, and the customer's public page
the emailed link opens (``/pay/<link>?token=...``), headed with PARTNER_NAME, with its language
switch: in the language the customer picked there, else the merchant's (a token that names no
link, in the browser's).

The token travels in the query, which the log redaction masks; the page shows the order and
the amount, never the customer's details.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.core.models.payment_link import PaymentLink
from portal.domain.branding import service as branding
from portal.domain.payments import wording
from portal.domain.payments.links import (
    customer_language,
    opening,
    renewal,
    sending,
    standing,
    tokens,
)
from portal.features.payments.links.forms import CancelForm, ContinueForm, ResendForm
from portal.features.payments.pages import flash_errors, load_payment, merchant_of
from portal.web import page_language
from portal.web.auth.access import current_actor, public, roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("payment_links", __name__)


@bp.post("/payments/<int:payment_id>/link/resend")
@roles_required(*STAFF)
def resend(payment_id: int) -> ResponseReturnValue:
    """Email the customer a new link with a new lifetime (the older one stops working)."""
    payment = load_payment(payment_id)
    if ResendForm().validate_on_submit():
        sent = sending.resend(current_settings(), payment, merchant_of(payment), current_actor())
        flash(sent.message, "success" if sent.ok else "error")
    return redirect(url_for("payments.detail", payment_id=payment.id))


@bp.post("/payments/<int:payment_id>/link/new")
@roles_required(*STAFF)
def send_new(payment_id: int) -> ResponseReturnValue:
    """Email the customer of an unpaid payment a new link, same amount; the new hold's page."""
    payment = load_payment(payment_id)
    if not ResendForm().validate_on_submit():
        return redirect(url_for("payments.detail", payment_id=payment.id))
    sent = renewal.send_new_link(current_settings(), payment, merchant_of(payment),
                                 current_actor())
    flash(sent.message, "success" if sent.ok else "error")
    return redirect(url_for("payments.detail", payment_id=sent.payment_id or payment.id))


@bp.post("/payments/<int:payment_id>/link/cancel")
@roles_required(*STAFF)
def cancel(payment_id: int) -> ResponseReturnValue:
    """Withdraw the link, after its confirmation box was ticked."""
    payment, form = load_payment(payment_id), CancelForm()
    if form.validate_on_submit():
        sent = sending.cancel(payment, current_actor())
        flash(sent.message, "success" if sent.ok else "error")
    else:
        flash_errors(form)
    return redirect(url_for("payments.detail", payment_id=payment.id))


@bp.get("/pay/<int:payment_link_id>")
@public
def page(payment_link_id: int) -> ResponseReturnValue:
    """What the customer sees on opening the link: the order and a button to pay, or where the
    link stands (being opened, used, paid)."""
    link, payment = _opened(payment_link_id)
    opening.settle(link, payment, clock.utcnow())
    if opening.refusal(payment, _merchant(payment)):
        return _not_available(link)
    return _page(link, payment)


@bp.post("/pay/<int:payment_link_id>")
@public
def pay(payment_link_id: int) -> ResponseReturnValue:
    """Mint the gateway's checkout (once) and send the customer there."""
    link, payment = _opened(payment_link_id)
    if not ContinueForm().validate_on_submit():
        return _page(link, payment), 400
    opened = opening.open_link(current_settings(), link, clock.utcnow())
    if not opened.available:
        return _not_available(link)
    if opened.redirect_url:
        return redirect(opened.redirect_url, 303)
    return _page(link, db.session.get(Payment, link.payment_id, populate_existing=True) or payment,
                 opened.message)


@bp.post("/pay/<int:payment_link_id>/language")
@public
def language_pick(payment_link_id: int) -> ResponseReturnValue:
    """The page's language switch: the customer's pick is kept with the link (live or over),
    then the link's page again in it. The token is checked as the page checks it; CSRF-checked
    like every form."""
    checked, payment = _checked(payment_link_id)
    link = checked.link or checked.over
    if link is None or payment is None:
        abort(_refused(checked, None))
    customer_language.pick(link, payment, request.form.get("language", ""),
                           current_actor(opening.OPEN_ACTOR))
    return redirect(url_for(".page", payment_link_id=link.id,
                            token=request.args.get("token", "")), 303)


def _opened(link_id: int) -> tuple[PaymentLink, Payment]:
    """The live link the query's token opens and its hold, or the refusal page (403/410)."""
    checked, payment = _checked(link_id)
    if checked.link is None or payment is None:
        abort(_refused(checked, payment))
    return checked.link, payment


def _checked(link_id: int) -> tuple[tokens.Checked, Payment | None]:
    """The query's token checked, and the hold of the link it was made for (live or over); the
    page drawn in that link's language, else (a token naming no link) in the browser's."""
    settings = current_settings()
    checked = tokens.check(settings.secret_key, link_id, request.args.get("token", ""),
                           sending.lifetime(settings), clock.utcnow())
    link = checked.link or checked.over
    payment = db.session.get(Payment, link.payment_id) if link is not None else None
    if link is None or payment is None:
        page_language.use_browsers()
    else:
        page_language.use(customer_language.of_link(link, _merchant(payment)))
    return checked, payment


def _refused(checked: tokens.Checked, payment: Payment | None) -> ResponseReturnValue:
    """The page of a link that opens nothing: why, naming no order; with the language switch
    when the token is the link's own (expired, replaced, withdrawn)."""
    over = checked.over if payment is not None else None
    return make_response(render_template(
        "verification/refused.html", status=checked.status,
        reason=checked.reason or tokens.NOT_VALID, brand=branding.current(current_settings()),
        language_url=_language_url(over) if over is not None else None), checked.status)


def _language_url(link: PaymentLink) -> str:
    """Where the link's page posts a language picked on it (the token the page was opened
    with)."""
    return url_for(".language_pick", payment_link_id=link.id, token=request.args.get("token", ""))


def _merchant(payment: Payment) -> Merchant:
    merchant = db.session.get(Merchant, payment.merchant_id)
    assert merchant is not None  # a payment goes with its merchant
    return merchant


def _not_available(link: PaymentLink) -> ResponseReturnValue:
    """The neutral page of a link whose merchant cannot take payments now: no reason, no
    gateway error (the audit trail and the hold's page tell ops why)."""
    brand = branding.current(current_settings())
    return render_template("payments/links/not_available.html", brand=brand,
                           partner=brand.display_name, language_url=_language_url(link))


def _page(link: PaymentLink, payment: Payment, message: str = "") -> str:
    return render_template(
        "payments/link.html", link=link, payment=payment, merchant=_merchant(payment),
        message=message,
        standing=standing.standing(link, payment, clock.utcnow()), Standing=standing.Standing,
        form=ContinueForm(), brand=branding.current(current_settings()), words=wording,
        renewed=renewal.replacement_of(payment) is not None, language_url=_language_url(link))
