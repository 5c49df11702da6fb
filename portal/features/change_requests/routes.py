"""Change requests of a merchant's locked details: asked from the merchant's page, approved on
the Approvals page (four eyes), emailed to the gateway's support, its answer recorded here, and
the section sent again through its step once the record is reset. The app-wide CSRFProtect
checks every POST's token before these views run."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.change_request import ChangeRequest, ChangeState
from portal.core.models.merchant import Merchant
from portal.domain.change_requests import sandbox
from portal.domain.change_requests.mail import email_support
from portal.domain.change_requests.sections import BY_KEY, STATE_WORDS, Section, shown
from portal.domain.change_requests.service import (
    ChangeRefused,
    Proof,
    current_values,
    record_answer,
    requests_of,
    settle,
    standings,
)
from portal.domain.four_eyes.requests import request_change
from portal.domain.onboarding.drafts import get_merchant
from portal.features.change_requests.forms import (
    AnswerForm,
    change_form,
    field_name,
    form_data,
)
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("change_requests", __name__)


@bp.app_context_processor
def merchant_card() -> dict[str, object]:
    """``change_card(merchant)`` for the merchant's page: each section's standing, its
    requests, and the words of their states."""

    def change_card(merchant: Merchant) -> dict[str, object]:
        return {"standings": standings(merchant), "changes": requests_of(merchant),
                "state_words": STATE_WORDS, "sections": BY_KEY}

    return {"change_card": change_card}


@bp.route("/merchants/<int:merchant_id>/changes/new/<section_key>", methods=["GET", "POST"])
@roles_required(*STAFF)
def new(merchant_id: int, section_key: str) -> ResponseReturnValue:
    """Ask for a change of one locked section: the new values, why, and the proof."""
    merchant = get_merchant(merchant_id) or abort(404)
    section = BY_KEY.get(section_key) or abort(404)
    form = change_form(section, data=form_data(section, current_values(merchant, section)))
    if form.validate_on_submit():
        upload = form.proof.data
        proof = Proof(upload.filename or "", upload.stream) if upload else None
        try:
            change = request_change(current_settings(), merchant, section.key,
                                    form.new_values(section), form.reason.data, proof,
                                    current_user.id, current_actor())
        except ChangeRefused as exc:
            target = field_name(exc.field) if exc.field else ""
            (form[target].errors if target in form else form.form_errors).append(exc.message)
        else:
            flash("The change request is waiting for a second person's approval on the "
                  "Approvals page.", "success")
            return redirect(url_for(".detail", merchant_id=merchant.id, change_id=change.id))
    return render_template("change_requests/new.html", merchant=merchant, section=section,
                           form=form, current=current_values(merchant, section),
                           field_name=field_name, shown=shown)


@bp.get("/merchants/<int:merchant_id>/changes/<int:change_id>")
@roles_required(*STAFF)
def detail(merchant_id: int, change_id: int) -> ResponseReturnValue:
    """One change request: what changes, why, its proof, where it stands and what is next."""
    merchant, change = _load(merchant_id, change_id)
    return _page(merchant, change, AnswerForm())


@bp.post("/merchants/<int:merchant_id>/changes/<int:change_id>/email")
@roles_required(*STAFF)
def email(merchant_id: int, change_id: int) -> ResponseReturnValue:
    """Email an approved request again (the first email could not go)."""
    merchant, change = _load(merchant_id, change_id)
    if change.state != ChangeState.APPROVED:
        flash("Only an approved request waiting for its email can be emailed.", "error")
    else:
        message = email_support(current_settings(), change, current_actor())
        flash(message, "success" if change.state == ChangeState.SENT else "error")
    return redirect(url_for(".detail", merchant_id=merchant.id, change_id=change.id))


@bp.post("/merchants/<int:merchant_id>/changes/<int:change_id>/answer")
@roles_required(*STAFF)
def answer(merchant_id: int, change_id: int) -> ResponseReturnValue:
    """Record the gateway support's answer: the record reset (the section opens) or refused."""
    merchant, change = _load(merchant_id, change_id)
    form = AnswerForm()
    if form.validate_on_submit():
        try:
            record_answer(change, form.outcome.data == "reset", form.answer.data,
                          current_actor())
        except ChangeRefused as exc:
            flash(exc.message, "error")
        else:
            flash("The answer was recorded.", "success")
        return redirect(url_for(".detail", merchant_id=merchant.id, change_id=change.id))
    return _page(merchant, change, form), 422


@bp.post("/merchants/<int:merchant_id>/changes/<int:change_id>/sandbox-reset")
@roles_required(*STAFF)
def sandbox_reset(merchant_id: int, change_id: int) -> ResponseReturnValue:
    """Sandbox only: have the sandbox's support reset the record, as the real one would."""
    merchant, change = _load(merchant_id, change_id)
    try:
        sandbox.support_resets(current_settings(), change, current_actor())
    except ChangeRefused as exc:
        flash(exc.message, "error")
    else:
        flash("The sandbox's support reset the record: send the step again with the change.",
              "success")
    return redirect(url_for(".detail", merchant_id=merchant.id, change_id=change.id))


def _load(merchant_id: int, change_id: int) -> tuple[Merchant, ChangeRequest]:
    merchant = get_merchant(merchant_id) or abort(404)
    change = db.session.get(ChangeRequest, change_id)
    if change is None or change.merchant_id != merchant.id:
        abort(404)
    settle(change)
    return merchant, change


def _page(merchant: Merchant, change: ChangeRequest, form: AnswerForm) -> str:
    section: Section = BY_KEY[change.section]
    return render_template("change_requests/detail.html", merchant=merchant, change=change,
                           section=section, form=form, States=ChangeState, shown=shown,
                           words=STATE_WORDS[change.state],
                           sandbox=current_settings().gateway_is_sandbox,
                           support=current_settings().gateway_support_email)
