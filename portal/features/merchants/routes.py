"""The merchants list, one merchant's summary, and deleting an abandoned merchant."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, send_file, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.languages import BY_CODE
from portal.core.models import Role
from portal.core.models.merchant import Merchant
from portal.core.storage.current import current_store
from portal.domain.audit.service import record
from portal.domain.documents.service import documents_of
from portal.domain.documents.versions import versions_of
from portal.domain.health.dormancy import dormant_cutoff
from portal.domain.onboarding import merchant_language, progress
from portal.domain.onboarding.drafts import drafts_of, get_merchant
from portal.domain.onboarding.product_rows import product_rows
from portal.domain.onboarding.stalling import stale_cutoff
from portal.domain.payments.credentials import credentials_of
from portal.domain.payments.service import unavailable_reason
from portal.domain.requirements.checklist import keep_choice, merchant_checklist
from portal.domain.website_check.acceptance import accept_gap
from portal.domain.website_check.job import queue_check
from portal.features.merchants.export import export_zip
from portal.features.merchants.forms import (
    AcceptGapForm,
    DeleteMerchantForm,
    LanguageForm,
    SearchForm,
)
from portal.features.merchants.removal import can_delete, delete_abandoned
from portal.features.merchants.service import TOTAL_STEPS, owner_filter, search_merchants
from portal.features.ownership.pages import panel
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF
from portal.web.requirement_pages import RequirementChoicePost

bp = Blueprint("merchants", __name__)


@bp.get("/merchants")
@roles_required(*STAFF)
def index() -> ResponseReturnValue:
    """Every merchant with status, steps done and last activity; searchable and paged. A search
    that cannot be read (a control character typed) is a 400 with its message beside the box,
    and lists every merchant."""
    settings, now = current_settings(), clock.utcnow()
    days = settings.stale_after_days
    form = SearchForm(request.args, stale_after_days=days,
                      dormant_after_days=settings.dormant_after_days)
    valid = form.validate()
    page = search_merchants(form.q.data or "" if valid else "",
                            form.status.data or "" if valid else "",
                            request.args.get("page", 1, type=int),
                            stale_before=stale_cutoff(days, now)
                            if valid and form.stale.data else None,
                            dormant_before=dormant_cutoff(settings.dormant_after_days, now)
                            if valid and form.dormant.data else None,
                            owner=owner_filter(form.owner.data if valid else "", current_user.id))
    return render_template("merchants/index.html", form=form, page=page,
                           total_steps=TOTAL_STEPS), 200 if valid else 400


@bp.get("/merchants/<int:merchant_id>")
@roles_required(*STAFF)
def detail(merchant_id: int) -> ResponseReturnValue:
    """One merchant: identifiers, status, checklist, outstanding documents, the stepper."""
    merchant = get_merchant(merchant_id) or abort(404)
    return render_detail(merchant, DeleteMerchantForm())


@bp.post("/merchants/<int:merchant_id>/delete")
@roles_required(*STAFF)
def delete(merchant_id: int) -> ResponseReturnValue:
    """Delete a merchant whose create never reached the gateway, once the box is ticked."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = DeleteMerchantForm()
    if not form.validate_on_submit():
        return render_detail(merchant, form), 400
    name = merchant.name
    if not delete_abandoned(current_settings(), merchant, current_actor()):
        flash("This merchant may exist at the gateway, so it cannot be deleted: reconcile it "
              "instead.", "error")
        return redirect(url_for(".detail", merchant_id=merchant_id))
    flash(f"Deleted {name}, with its drafts and documents.", "success")
    return redirect(url_for(".index"))


@bp.post("/merchants/<int:merchant_id>/export")
@roles_required(Role.ADMIN)
def export(merchant_id: int) -> ResponseReturnValue:
    """Everything the portal holds about the merchant as a ZIP (a data-access request)."""
    merchant = get_merchant(merchant_id) or abort(404)
    archive = export_zip(merchant, documents_of(merchant), current_store())
    record("merchant.export", actor=current_actor(), merchant_id=merchant.id)
    db.session.commit()
    return send_file(archive, as_attachment=True, mimetype="application/zip",
                     download_name=f"merchant-{merchant.external_onboarding_id}.zip")


@bp.post("/merchants/<int:merchant_id>/requirements")
@roles_required(*STAFF)
def requirements(merchant_id: int) -> ResponseReturnValue:
    """Change what decides the merchant's list of requirements (its sector, and its entity
    type and products until its steps hold them)."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = RequirementChoicePost()
    if form.validate_on_submit():
        keep_choice(merchant, form.choice(), actor=current_actor())
        flash("The list of what this merchant needs is updated.", "success")
    else:
        flash("The form expired; choose again.", "error")
    return redirect(url_for(".detail", merchant_id=merchant_id) + "#needs-heading")


@bp.post("/merchants/<int:merchant_id>/language")
@roles_required(*STAFF)
def language(merchant_id: int) -> ResponseReturnValue:
    """Ops choose the language of the merchant's pages and emails, audited (a language the
    merchant picks on their link's page still comes first)."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = LanguageForm()
    if not form.validate_on_submit():
        return render_detail(merchant, DeleteMerchantForm(), form), 400
    merchant_language.set_default(merchant, form.language.data, current_actor())
    flash(f"{merchant.name}'s pages and emails are now in "
          f"{BY_CODE[merchant.language].english_name}.", "success")
    return redirect(url_for(".detail", merchant_id=merchant_id) + "#language-heading")


@bp.post("/merchants/<int:merchant_id>/website-check")
@roles_required(*STAFF)
def website_check(merchant_id: int) -> ResponseReturnValue:
    """Queue the check of the merchant's website; the worker runs it."""
    merchant = get_merchant(merchant_id) or abort(404)
    queue_check(merchant, actor=current_actor())
    flash("The website check is queued: the worker fetches the website and this page shows "
          "what it found.", "success")
    return redirect(url_for(".detail", merchant_id=merchant_id) + "#website-heading")


@bp.post("/merchants/<int:merchant_id>/website-check/accept")
@roles_required(*STAFF)
def accept_website_gap(merchant_id: int) -> ResponseReturnValue:
    """Accept a gap of the last website check with a note, audited."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = AcceptGapForm()
    if not form.validate_on_submit():
        errors = [*form.note.errors, *form.gap.errors] or ["The form expired; try again."]
        flash(f"The gap is not accepted: {errors[0]}", "error")
    elif accept_gap(merchant, form.gap.data, form.note.data.strip(), actor=current_actor()):
        flash(f"Accepted: {form.gap.data}. It is no longer listed as what the gateway will "
              "likely ask for.", "success")
    else:
        flash("The last website check does not report that gap any more.", "error")
    return redirect(url_for(".detail", merchant_id=merchant_id) + "#website-heading")


def render_detail(merchant: Merchant, delete_form: DeleteMerchantForm,
                  language_form: LanguageForm | None = None) -> str:
    """The summary page (its owner and newest notes, what it needs, the language of its pages),
    with the delete form when the merchant can be deleted."""
    drafts = drafts_of(merchant)
    documents = documents_of(merchant)
    stepper = progress.stepper(merchant, drafts)
    return render_template("merchants/detail.html", merchant=merchant, stepper=stepper,
                           versions=versions_of(documents),
                           needs=merchant_checklist(merchant, drafts, documents),
                           needs_form=RequirementChoicePost(
                               formdata=None, data=merchant.requirement_choice or {}),
                           credentials=credentials_of(merchant),
                           products=product_rows(merchant),
                           payments_reason=unavailable_reason(merchant),
                           ownership=panel(merchant, current_user),
                           language_form=language_form or LanguageForm(
                               formdata=None, language=merchant.language),
                           language_in_force=BY_CODE[merchant_language.language_of(merchant)],
                           delete_form=delete_form if can_delete(merchant) else None)
