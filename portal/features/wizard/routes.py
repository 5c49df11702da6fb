"""Wizard pages: form -> onboarding service -> flash/redirect, one route per action."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request
from flask.typing import ResponseReturnValue

from portal.core.clients import current_onboarding_client
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepDraft, StepState
from portal.domain.onboarding import progress, scenarios
from portal.domain.onboarding import reconcile as reconciliation
from portal.domain.onboarding.create import new_external_id, start_merchant
from portal.domain.onboarding.drafts import DraftConflict, draft_saved, drafts_of, get_merchant
from portal.domain.onboarding.outbox import queue
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.service import save_step_draft, send_saved, send_step
from portal.domain.onboarding.steps import BY_KEY, Step
from portal.domain.requirements.checklist import keep_choice
from portal.features.wizard.conflicts import Difference, differences
from portal.features.wizard.forms import FORMS, CreateForm, ReconcileForm, StepForm
from portal.features.wizard.pages import (
    after,
    categories,
    page_errors,
    stored_errors,
    template_helpers,
)
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.held_forms import held_typing, keeps_typing
from portal.web.auth.roles import STAFF
from portal.web.required_fields import mark_required
from portal.web.requirement_pages import RequirementChoiceForm
from portal.web.scenario_filling import fill_every_step, filled_message, replaced_by_fill
from portal.web.step_pages import chosen_scenario, step_url

bp = Blueprint("wizard", __name__)
bp.context_processor(template_helpers)
CREATE = BY_KEY["create"]
#: The buttons that send: "Save and send", and "Send anyway" past the advisory checks.
SEND_ANYWAY = "send_anyway"
SENDS = ("send", SEND_ANYWAY)


@bp.route("/merchants/new", methods=["GET", "POST"])
@keeps_typing
@roles_required(*STAFF)
def new() -> ResponseReturnValue:
    """Step 1 for a merchant not yet in the portal: the record is stored, then maybe sent."""
    form = CreateForm(**held_typing(), data={"externalOnboardingId": new_external_id()})
    choice = RequirementChoiceForm(formdata=request.form if request.method == "POST"
                                   else request.args)
    mark_required(form, CREATE.shape)
    if form.validate_on_submit():
        action = request.form.get("action", "")
        sending = action in SENDS
        merchant, errors = start_merchant(form.payload(), sending, actor=current_actor())
        if merchant is not None:
            keep_choice(merchant, choice.choice(), actor=current_actor())
        if merchant is not None and sending:
            result = send_step(current_onboarding_client(), merchant, CREATE, form.payload(),
                               actor=current_actor(), accept_advisory=action == SEND_ANYWAY)
            return after(merchant, CREATE, result, moved=result.ok)
        if merchant is not None:
            return after(merchant, CREATE, draft_saved())
        form.show_errors(errors)
    return render_template("wizard/step.html", merchant=None, step=CREATE, form=form,
                           stepper=None, draft=None, lock_reason=None, readonly=False,
                           choice=choice, needs=choice.profile().needs())


@bp.route("/merchants/<int:merchant_id>/steps/<step_key>", methods=["GET", "POST"])
@keeps_typing
@roles_required(*STAFF)
def step(merchant_id: int, step_key: str) -> ResponseReturnValue:
    """One step's page: Save draft stores, Save and send validates, sends and moves on."""
    merchant, step = load(merchant_id, step_key)
    draft = drafts_of(merchant).get(step.key)
    form = FORMS[step.key](**held_typing(), data=loaded(draft))
    form.prepare(categories)
    action = request.form.get("action", "")
    changes: list[Difference] = []
    if form.validate_on_submit() and not form.row_action(action):
        result = save(merchant, step, form, action, form.loaded_version())
        if result.conflict is not None and not differences(form, result.conflict.payload):
            # The stored draft already holds these very values: no one's work is at stake.
            result = save(merchant, step, form, action, result.conflict.version)
        if result.ok or result.queued_until:
            return after(merchant, step, result, moved=result.ok and action in SENDS)
        if result.conflict is not None:
            changes = differences(form, result.conflict.payload)
            form.draft_version.data = str(result.conflict.version)  # saving again is deliberate
        elif result.version is not None:
            form.draft_version.data = str(result.version)  # the draft this very save stored
        form.show_errors(page_errors(result.message, result.unavailable, result.errors),
                         step.root)
        form.send_anyway_offered = result.advisory_only
    elif request.method == "GET" and draft is not None and draft.state == StepState.NEEDS_ATTENTION:
        form.show_errors(stored_errors(draft.last_error), step.root)
        form.send_anyway_offered = bool(draft.last_error.get("advisory"))
    return render_step(merchant, step, form, changes)


def save(merchant: Merchant, step: Step, form: StepForm, action: str,
         version: int | None) -> StepResult:
    """Save and send (``action`` 'send', or 'send_anyway' past the advisory checks) or save
    the draft, from the form's data."""
    if action in SENDS:
        return send_step(current_onboarding_client(), merchant, step, form.payload(), version,
                         actor=current_actor(), accept_advisory=action == SEND_ANYWAY)
    return save_step_draft(merchant, step, form.payload(), version, actor=current_actor())


@bp.post("/merchants/<int:merchant_id>/steps/<step_key>/retry")
@roles_required(*STAFF)
def retry(merchant_id: int, step_key: str) -> ResponseReturnValue:
    """Send the stored draft again (after the gateway was unreachable or the outcome unknown)."""
    merchant, step = load(merchant_id, step_key)
    result = send_saved(current_onboarding_client(), merchant, step, actor=current_actor())
    return after(merchant, step, result, moved=result.ok)


@bp.post("/merchants/<int:merchant_id>/reconcile")
@roles_required(*STAFF)
def reconcile(merchant_id: int) -> ResponseReturnValue:
    """Link a lost create to the onboardingId ops typed, once the status read proves it ours."""
    merchant, _step = load(merchant_id, CREATE.key)
    form = ReconcileForm()
    result = (reconciliation.reconcile(current_onboarding_client(), merchant,
                                       form.onboardingId.data or "", current_actor())
              if form.validate_on_submit() else StepResult(False, "The form expired; try again."))
    return after(merchant, CREATE, result, moved=result.ok)


@bp.post("/merchants/<int:merchant_id>/fill")
@roles_required(*STAFF)
def fill(merchant_id: int) -> ResponseReturnValue:
    """Sandbox only: keep the chosen scenario for the merchant and fill every step that can
    still change with its test data; back to the step page the picker was on. When that
    replaces values a step holds, a page says which and asks first."""
    scenario = chosen_scenario()
    merchant = get_merchant(merchant_id) or abort(404)
    back = BY_KEY.get(request.form.get("back", ""), CREATE)
    replaced = replaced_by_fill(merchant, scenario)
    if replaced and request.form.get("replace") != "yes":  # ask first, saying what it replaces
        return render_template("wizard/fill_confirm.html", merchant=merchant, back=back,
                               scenario=scenario, replaced=replaced)
    try:
        filled = fill_every_step(merchant, scenario, current_actor())
    except DraftConflict:
        flash("Someone else saved a step meanwhile, so nothing was filled: try again.", "error")
    else:
        flash(filled_message(scenario, filled), "success" if filled else "warning")
    return redirect(step_url(merchant, back))


@bp.get("/merchants/<int:merchant_id>/fill")
@roles_required(*STAFF)
def fill_reopened(merchant_id: int) -> ResponseReturnValue:
    """The fill's question reopened (reload, Back): the merchant's first step, its picker."""
    return redirect(step_url(get_merchant(merchant_id) or abort(404), CREATE))


@bp.post("/merchants/new/fill")
@roles_required(*STAFF)
def fill_new() -> ResponseReturnValue:
    """Sandbox only: start a merchant with a scenario's step 1 data and fill every step."""
    scenario = chosen_scenario()
    merchant, errors = start_merchant(scenarios.form_data(scenario, "create"),
                                      actor=current_actor())
    if merchant is None:
        abort(409, errors[0].message)
    filled = fill_every_step(merchant, scenario, current_actor())
    flash(filled_message(scenario, [CREATE, *filled]), "success")
    return redirect(step_url(merchant, CREATE))


def load(merchant_id: int, step_key: str) -> tuple[Merchant, Step]:
    """The merchant and a step the wizard edits with a form, or 404."""
    merchant = get_merchant(merchant_id)
    if merchant is None or step_key not in FORMS:
        abort(404)
    return merchant, BY_KEY[step_key]


def loaded(draft: StepDraft | None) -> dict[str, Any]:
    """A step form's data from its stored draft, with the version it was loaded at."""
    if draft is None:
        return {"draft_version": "0"}
    return {**draft.payload, "draft_version": str(draft.version)}


def render_step(merchant: Merchant, step: Step, form: StepForm,
                changes: list[Difference]) -> str:
    """The step page with its stepper, lock reason, outcome banners and save conflict."""
    mark_required(form, step.shape, step.root)  # once its rows are final (added owners too)
    drafts = drafts_of(merchant)
    stepper = progress.stepper(merchant, drafts)
    status = next(s for s in stepper if s.step.key == step.key)
    draft = drafts.get(step.key)
    queued = queue.live_item(merchant.id, step.key) if draft and draft.state == StepState.QUEUED \
        else None
    identity_fixed = step.creates_record and merchant.create_state != CreateState.DRAFT
    return render_template("wizard/step.html", merchant=merchant, step=step, form=form,
                           stepper=stepper, draft=draft, lock_reason=status.lock_reason,
                           readonly=bool(status.lock_reason or identity_fixed),
                           queued=queued, changes=changes,
                           not_needed=status.state == StepState.NOT_NEEDED)
