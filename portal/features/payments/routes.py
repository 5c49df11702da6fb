"""Payments pages: form -> payments service -> flash/redirect, one route per action.

Ops and admins take holds and act on payments; only admins create or replace credentials.
The callback is the customer's browser coming back from the hosted page: public, no CSRF
token (the gateway's page posts it), answered with a customer-facing page.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.user import Role
from portal.core.payment_statuses import CUSTOMER_APPROVED
from portal.domain.audit.service import record
from portal.domain.branding import service as branding
from portal.domain.four_eyes import queries, refund_allowance
from portal.domain.four_eyes.requests import (
    merchant_key_needs_approval,
    portfolio_key_needs_approval,
)
from portal.domain.payments import (
    actions,
    expiry,
    holds,
    polling,
    portfolio,
    service,
    status_read,
    wording,
)
from portal.domain.payments import callback as callbacks
from portal.domain.payments import credentials as creds
from portal.domain.payments import discard as discarding
from portal.domain.payments.links import customer_language
from portal.domain.payments.links.standing import hold_words, label_of
from portal.domain.payments.search import finding
from portal.domain.payments.search.spreadsheet import csv_lines
from portal.features.payments import approval_pages as approval_pages
from portal.features.payments.forms import (
    ActionForm,
    CredentialsForm,
    HoldForm,
    PortfolioKeyForm,
)
from portal.features.payments.links import pages as link_pages
from portal.features.payments.pages import (
    client_for,
    credentials_page,
    detail_page,
    flash_errors,
    hold_page,
    hold_prefill,
    load_merchant,
    load_payment,
    merchant_of,
    portfolio_page,
)
from portal.features.payments.search.forms import FilterForm
from portal.gateway.shapes import FieldError
from portal.web import page_language
from portal.web.auth.access import current_actor, public, roles_required
from portal.web.auth.roles import STAFF
from portal.web.csrf import csrf

bp = Blueprint("payments", __name__)


@bp.get("/payments")
@bp.get("/merchants/<int:merchant_id>/payments")
@roles_required(*STAFF)
def index(merchant_id: int | None = None) -> ResponseReturnValue:
    """Payments newest first, of every merchant or of one; searched and filtered. A filter that
    cannot be read is a 400 with its message beside the field, and does not filter."""
    merchant = load_merchant(merchant_id) if merchant_id is not None else None
    form = FilterForm(request.args)
    valid = form.validate()
    settings, now = current_settings(), clock.utcnow()
    page = finding.find_payments(form.filters(merchant_id, expiry.expiring_soon(settings, now)),
                                request.args.get("page", 1, type=int))
    return render_template(
        "payments/index.html", merchant=merchant, form=form, page=page, words=wording,
        expiries={row.payment.id: expiry.expiry_of(row.payment, settings, now)
                  for row in page.rows}, now=now, link_label=label_of, hold_words=hold_words,
        args=form.query_args(),
        reason=service.unavailable_reason(merchant) if merchant else None,
        note=service.approval_note(merchant) if merchant else None,
        credentials=creds.credentials_of(merchant) if merchant else None,
        requests=queries.of_merchant(merchant.id) if merchant else [],
        queries=queries), 200 if valid else 400


@bp.get("/payments/export.csv")
@bp.get("/merchants/<int:merchant_id>/payments/export.csv")
@roles_required(*STAFF)
def export(merchant_id: int | None = None) -> ResponseReturnValue:
    """The payments the list shows with the same filters, all of them, as CSV; audited."""
    merchant = load_merchant(merchant_id) if merchant_id is not None else None
    form = FilterForm(request.args)
    form.validate()
    now = clock.utcnow()
    filters = form.filters(merchant_id, expiry.expiring_soon(current_settings(), now))
    record("payments.export", merchant_id=merchant.id if merchant else None,
           actor=current_actor(),
           detail={"filters": form.audited()})
    db.session.commit()
    name = f"payments-{now:%Y%m%d-%H%M}.csv"
    return Response(stream_with_context(csv_lines(finding.every_payment(filters), now)),
                    mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


@bp.get("/merchants/<int:merchant_id>/payments/credentials")
@roles_required(*STAFF)
def credentials(merchant_id: int) -> ResponseReturnValue:
    """The merchant's MID, kid and public key; admins see the form that sets them up."""
    merchant = load_merchant(merchant_id)
    current = creds.credentials_of(merchant)
    prefill = creds.prefill(current, current_settings().gateway_is_sandbox,
                            merchant.gateway_mid)
    return credentials_page(merchant, current, CredentialsForm(data=prefill))


@bp.post("/merchants/<int:merchant_id>/payments/credentials")
@roles_required(Role.ADMIN)
def save_credentials(merchant_id: int) -> ResponseReturnValue:
    """Store the MID with a new key pair (generated or imported) or the portfolio key."""
    merchant = load_merchant(merchant_id)
    form = CredentialsForm()
    if form.validate_on_submit():
        try:
            own_pem = approval_pages.own_pem(form)
            if merchant_key_needs_approval(merchant, own_pem, form.replace.data):
                if approval_pages.ask_for_merchant_key(merchant, form, current_user.id):
                    return redirect(url_for(".credentials", merchant_id=merchant.id))
                return credentials_page(merchant, creds.credentials_of(merchant), form), 400
            saved = creds.save_credentials(
                current_settings(), merchant, form.mid.data, form.kid.data, form.imported_pem(),
                current_user.id, replace=form.replace.data,
                use_portfolio=form.key_source.data == creds.PORTFOLIO, actor=current_actor())
        except creds.CredentialsError as exc:
            form.form_errors.append(str(exc))
        else:
            flash(saved.message, "success" if saved.sandbox_registered is not False else "warning")
            return redirect(url_for(".credentials", merchant_id=merchant.id))
    return credentials_page(merchant, creds.credentials_of(merchant), form), 400


@bp.get("/payments/portfolio-key")
@roles_required(*STAFF)
def portfolio_key() -> ResponseReturnValue:
    """The partner's portfolio key and the merchants signing with it; admins set it up."""
    current = creds.portfolio_key()
    prefill = ({"parent_mid": current.parent_mid, "kid": current.kid} if current else {})
    return portfolio_page(current, PortfolioKeyForm(data=prefill))


@bp.post("/payments/portfolio-key")
@roles_required(Role.ADMIN)
def save_portfolio_key() -> ResponseReturnValue:
    """Generate (or import) the portfolio key pair and store it with the parent MID."""
    form = PortfolioKeyForm()
    if form.validate_on_submit():
        try:
            if portfolio_key_needs_approval(form.imported_pem(), form.replace.data):
                if approval_pages.ask_for_portfolio_key(form, current_user.id):
                    return redirect(url_for(".portfolio_key"))
                return portfolio_page(creds.portfolio_key(), form), 400
            saved = portfolio.save_portfolio_key(current_settings(), form.parent_mid.data,
                                                 form.kid.data, form.imported_pem(),
                                                 current_user.id, replace=form.replace.data,
                                                 actor=current_actor())
        except creds.CredentialsError as exc:
            form.form_errors.append(str(exc))
        else:
            flash(saved.message, "success" if saved.sandbox_registered is not False else "warning")
            return redirect(url_for(".portfolio_key"))
    return portfolio_page(creds.portfolio_key(), form), 400


@bp.route("/merchants/<int:merchant_id>/payments/new", methods=["GET", "POST"])
@roles_required(*STAFF)
def new_hold(merchant_id: int) -> ResponseReturnValue:
    """A new hold: validated, stored, sent; the browser then goes to the hosted page."""
    merchant = load_merchant(merchant_id)
    form = HoldForm(data=hold_prefill(merchant, request.args.get("resume")))
    result, action = service.Result(True), request.form.get("action", "")
    if form.validate_on_submit() and not form.row_action(action):
        body = holds.hold_body(form.payload(), url_for(".callback", _external=True))
        if action == link_pages.EMAIL_LINK:
            return link_pages.email_new_hold(merchant, form, body)
        result = holds.start_hold(client_for(merchant), merchant, body, current_user.id,
                                  actor=current_actor())
        if result.ok and result.redirect_url:
            return redirect(result.redirect_url)
        form.show_errors([FieldError("", result.message), *result.errors])
    return hold_page(merchant, form, result)


@bp.get("/payments/<int:payment_id>")
@roles_required(*STAFF)
def detail(payment_id: int) -> ResponseReturnValue:
    """One payment: amounts, status, refunds and the actions it allows now."""
    return detail_page(load_payment(payment_id))


@bp.post("/payments/<int:payment_id>/capture", defaults={"action": actions.CAPTURE})
@bp.post("/payments/<int:payment_id>/reverse", defaults={"action": actions.REVERSE})
@bp.post("/payments/<int:payment_id>/refund", defaults={"action": actions.REFUND})
@roles_required(*STAFF)
def act(payment_id: int, action: str) -> ResponseReturnValue:
    """Capture, reverse or refund once, after the confirmation box was ticked."""
    payment = load_payment(payment_id)
    form = ActionForm()
    if form.validate_on_submit():
        if action == actions.REFUND and refund_allowance.needs_approval(
                current_settings().four_eyes_refund_above, payment, form.amount_or_none()):
            if approval_pages.ask_for_refund(payment, form, current_user.id):
                return redirect(url_for(".detail", payment_id=payment.id))
            return detail_page(payment, form), 400
        ends = expiry.expiry_of(payment, current_settings(), clock.utcnow())
        result = actions.perform(client_for(merchant_of(payment)), payment, action,
                                 form.nonce.data, form.amount_or_none(), bool(form.again.data),
                                 actor=current_actor(), hold_flagged=bool(ends and ends.soon))
        flash(result.message, "success" if result.ok else "error")
    else:
        flash_errors(form)
    return redirect(url_for(".detail", payment_id=payment.id))


@bp.post("/payments/<int:payment_id>/discard")
@roles_required(*STAFF)
def discard(payment_id: int) -> ResponseReturnValue:
    """Discard a hold that never reached the gateway, after its confirmation box was ticked."""
    payment, form = load_payment(payment_id), ActionForm()
    merchant_id = payment.merchant_id
    result = (discarding.discard(payment, form.nonce.data, current_actor())
              if form.validate_on_submit() else
              service.Result(False, " ".join(str(m) for ms in form.errors.values() for m in ms)))
    flash(result.message, "success" if result.ok else "error")
    return redirect(url_for(".index", merchant_id=merchant_id) if result.ok
                    else url_for(".detail", payment_id=payment_id))


@bp.post("/payments/<int:payment_id>/refresh")
@roles_required(*STAFF)
def refresh(payment_id: int) -> ResponseReturnValue:
    """Read the gateway's status (and settle a call whose answer was lost)."""
    payment = load_payment(payment_id)
    result = status_read.refresh(client_for(merchant_of(payment)), payment, current_actor(),
                                 polling.rules_of(current_settings()))
    flash(result.message, "success" if result.ok else "error")
    return redirect(url_for(".detail", payment_id=payment.id))


@bp.post("/payments/callback")
@csrf.exempt
@public
def callback() -> ResponseReturnValue:
    """The customer's return from the hosted page: verify the token, confirm, thank; in the
    language the customer picked on the payment's link, else the merchant's (a response that
    names no payment, in the browser's)."""
    now_ms = int(clock.utcnow().timestamp() * 1000)
    try:
        outcome = callbacks.take_callback(current_settings(),
                                         request.form.get(callbacks.TOKEN_FIELD), now_ms,
                                         current_actor(callbacks.CALLBACK))
    except callbacks.CallbackError as exc:
        page_language.use_browsers()
        return render_template("payments/customer.html", error=exc.message, words=wording,
                               brand=branding.current(current_settings())), exc.status
    merchant = merchant_of(outcome.payment)
    page_language.use(customer_language.of_payment(outcome.payment, merchant))
    return render_template("payments/customer.html", payment=outcome.payment,
                           confirmed=outcome.confirmed, words=wording, shop=merchant.public_name,
                           approved=outcome.payment.status in CUSTOMER_APPROVED,
                           brand=branding.current(current_settings()))
