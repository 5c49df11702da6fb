"""What the payments pages share: loading a merchant or payment (404 when absent), the
merchant's client, and drawing the pages the routes return."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, make_response, render_template

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment, PaymentCredentials, PortfolioKey
from portal.core.payment_statuses import AUTHORISED
from portal.domain.four_eyes import queries, refund_allowance
from portal.domain.payments import (
    actions,
    expiry,
    holds,
    polling,
    portfolio,
    service,
    setup_requests,
    wording,
)
from portal.domain.payments import credentials as creds
from portal.domain.payments import discard as discarding
from portal.domain.payments.links.holding_again import is_held
from portal.domain.payments.links.renewal import new_link_refusal, replacement_of
from portal.domain.payments.links.sending import link_of
from portal.domain.payments.links.standing import LABELS, UNOPENED, Standing, hold_words, standing
from portal.features.payments.forms import (
    ActionForm,
    AskSetupForm,
    CredentialsForm,
    HoldForm,
    PortfolioKeyForm,
)
from portal.features.payments.links.forms import CancelForm, ResendForm
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.payments.requests import InitiateRequest
from portal.gateway.payments.words import known
from portal.web.form_base import PortalForm
from portal.web.http import is_row_id
from portal.web.required_fields import mark_required


def load_merchant(merchant_id: int) -> Merchant:
    """The merchant, or 404."""
    return db.session.get(Merchant, merchant_id) or abort(404)


def load_payment(payment_id: int) -> Payment:
    """The payment, or 404."""
    return service.get_payment(payment_id) or abort(404)


def merchant_of(payment: Payment) -> Merchant:
    """The merchant a payment belongs to."""
    return load_merchant(payment.merchant_id)


def flash_errors(form: PortalForm) -> None:
    """Flash each error of a refused form whose page is redirected to rather than drawn."""
    for message in (m for errors in form.errors.values() for m in errors):
        flash(str(message), "error")


def client_for(merchant: Merchant) -> PaymentsClient:
    """The merchant's payments client; 409 without credentials, 503 if they cannot be read."""
    current = creds.credentials_of(merchant)
    if current is None:
        abort(409, "Set up this merchant's payment credentials first (an admin does this).")
    try:
        return creds.client_for(current_settings(), current)
    except creds.CredentialsError as exc:
        abort(503, str(exc))


def hold_prefill(merchant: Merchant, resume: str | None) -> dict[str, Any]:
    """Fresh identifiers, or the stored data of the hold ``resume`` names if the gateway never
    created it; 404 when ``resume`` names none of this merchant's payments, and a 409 page
    saying why when the hold is its payment link's to send."""
    if resume is not None:
        payment = service.get_payment(int(resume)) if is_row_id(resume) else None
        if payment is None or payment.merchant_id != merchant.id:
            abort(404, "This merchant has no payment with that number to send again.")
        refusal = holds.staff_form_refusal(payment) if payment.gid is None else None
        if refusal:
            abort(make_response(render_template(
                "payments/new.html", merchant=merchant, refusal=refusal, payment=payment,
                reason=service.unavailable_reason(merchant),
                credentials=creds.credentials_of(merchant)), 409))
        if payment.gid is None:
            return payment.request_payload
    return {"merchantTxnId": service.new_merchant_txn_id(),
            "merchantUniqueId": service.new_merchant_unique_id()}


def hold_page(merchant: Merchant, form: HoldForm, result: service.Result) -> str:
    """The new-hold page with ``form`` as typed (its errors beside the fields)."""
    mark_required(form, InitiateRequest)  # once its rows are final
    return render_template("payments/new.html", merchant=merchant, form=form, result=result,
                           refusal=None,
                           reason=service.unavailable_reason(merchant),
                           note=service.approval_note(merchant),
                           credentials=creds.credentials_of(merchant),
                           link_hours=current_settings().payment_link_hours)


def detail_page(payment: Payment, refund_form: ActionForm | None = None) -> str:
    """A payment's page; ``refund_form`` is a refund form refused with errors beside fields."""
    refunds = service.refunds_of(payment)
    requests = queries.of_payment(payment.id)
    ledger = wording.ledger_of(payment, refunds, queries.awaiting_refunds(requests))
    link, now = link_of(payment), clock.utcnow()
    return render_template(
        "payments/detail.html", payment=payment, merchant=merchant_of(payment), refunds=refunds,
        ledger=ledger, words=wording,
        offered=actions.offered(payment, refunds), recent_refund=actions.recent_refund(refunds),
        capture_limit=actions.capture_limit(payment),
        read_until=polling.read_again_until(payment, polling.rules_of(current_settings())),
        discardable=discarding.discard_refusal(payment) is None,
        authorised=payment.status in AUTHORISED, refund_form=refund_form,
        expiry=expiry.expiry_of(payment, current_settings(), clock.utcnow()),
        unknown_word=None if known(payment.gateway_status or payment.status)
        else payment.gateway_status,
        four_eyes_above=current_settings().four_eyes_refund_above,
        left_without_approval=refund_allowance.left_without_approval(
            current_settings().four_eyes_refund_above, refunds),
        four_eyes_days=refund_allowance.WINDOW.days,
        requests=requests, queries=queries, link=link,
        link_standing=standing(link, payment, now) if link else None, Standing=Standing,
        by_link=hold_words(link, payment),
        unopened=UNOPENED, link_labels=LABELS, link_forms=(ResendForm(), CancelForm()),
        replaced_by=replacement_of(payment), held=is_held(payment),
        renewable=new_link_refusal(current_settings(), payment) is None,
        replaces=service.get_payment(payment.replaces_payment_id)
        if payment.replaces_payment_id else None)


def credentials_page(merchant: Merchant, current: PaymentCredentials | None,
                     form: CredentialsForm) -> str:
    """The credentials page for ``merchant``."""
    return render_template("payments/credentials.html", merchant=merchant, current=current,
                           form=form, reason=service.not_approved_reason(merchant),
                           note=service.unavailable_reason(merchant)
                           or service.approval_note(merchant),
                           sandbox=current_settings().gateway_is_sandbox,
                           portfolio=creds.portfolio_key(),
                           asked=setup_requests.open_request(merchant.id),
                           ask_form=AskSetupForm())


def portfolio_page(current: PortfolioKey | None, form: PortfolioKeyForm) -> str:
    """The portfolio key page."""
    return render_template("payments/portfolio_key.html", current=current, form=form,
                           members=portfolio.members(current) if current else [],
                           sandbox=current_settings().gateway_is_sandbox)
