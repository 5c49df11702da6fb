"""Wizard pages: form -> onboarding service -> flash/redirect, one route per action."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request
from flask.typing import ResponseReturnValue

from portal.auth import roles_required
from portal.models.merchant import Merchant
from portal.models.step import StepDraft, StepState
from portal.onboarding import reconcile as reconciliation
from portal.onboarding import scenarios, service
from portal.onboarding.service import StepResult
from portal.onboarding.steps import BY_KEY, Step
from portal.outbox import queue
from portal.required_fields import mark_required
from portal.wizard.conflicts import Difference, differences
from portal.wizard.forms import FORMS, CreateForm, ReconcileForm, StepForm
from portal.wizard.pages import (
    STAFF,
    after,
    categories,
    chosen_scenario,
    client,
    page_errors,
    step_url,
    stored_errors,
    template_helpers,
)

bp = Blueprint("wizard", __name__)
bp.app_context_processor(template_helpers)
CREATE = BY_KEY["create"]


@bp.route("/merchants/new", methods=["GET", "POST"])
@roles_required(*STAFF)
def new() -> ResponseReturnValue:
    """Step 1 for a merchant not yet in the portal: the record is stored, then maybe sent."""
    form = CreateForm(data={"externalOnboardingId": service.new_external_id()})
    mark_required(form, CREATE.shape)
    if form.validate_on_submit():
        merchant, errors = service.start_merchant(form.payload())
        if merchant is not None and request.form.get("action") == "send":
            result = service.send_step(client(), merchant, CREATE, form.payload())
            return after(merchant, CREATE, result, moved=result.ok)
        if merchant is not None:
            return after(merchant, CREATE, service.draft_saved())
        form.show_errors(errors)
    return render_template("wizard/step.html", merchant=None, step=CREATE, form=form,
                           stepper=None, draft=None, lock_reason=None)


@bp.route("/merchants/<int:merchant_id>/steps/<step_key>", methods=["GET", "POST"])
@roles_required(*STAFF)
def step(merchant_id: int, step_key: str) -> ResponseReturnValue:
    """One step's page: Save draft stores, Save and send validates, sends and moves on."""
    merchant, step = load(merchant_id, step_key)
    draft = service.drafts_of(merchant).get(step.key)
    form = FORMS[step.key](data=loaded(draft))
    form.prepare(categories)
    action = request.form.get("action", "")
    changes: list[Difference] = []
    if form.validate_on_submit() and not form.row_action(action):
        version = form.loaded_version()
        result = (service.send_step(client(), merchant, step, form.payload(), version)
                  if action == "send"
                  else service.save_step_draft(merchant, step, form.payload(), version))
        if result.ok or result.queued_until:
            return after(merchant, step, result, moved=result.ok and action == "send")
        if result.conflict is not None:
            changes = differences(form, result.conflict.payload)
            form.draft_version.data = str(result.conflict.version)  # saving again is deliberate
        form.show_errors(page_errors(result.message, result.unavailable, result.errors),
                         step.root)
    elif request.method == "GET" and draft is not None and draft.state == StepState.NEEDS_ATTENTION:
        form.show_errors(stored_errors(draft.last_error), step.root)
    return render_step(merchant, step, form, changes)


@bp.post("/merchants/<int:merchant_id>/steps/<step_key>/retry")
@roles_required(*STAFF)
def retry(merchant_id: int, step_key: str) -> ResponseReturnValue:
    """Send the stored draft again (after the gateway was unreachable or the outcome unknown)."""
    merchant, step = load(merchant_id, step_key)
    result = service.send_saved(client(), merchant, step)
    return after(merchant, step, result, moved=result.ok)


@bp.post("/merchants/<int:merchant_id>/reconcile")
@roles_required(*STAFF)
def reconcile(merchant_id: int) -> ResponseReturnValue:
    """Link a lost create to the onboardingId ops typed, once the status read proves it ours."""
    merchant, _step = load(merchant_id, CREATE.key)
    form = ReconcileForm()
    result = (reconciliation.reconcile(client(), merchant, form.onboardingId.data or "")
              if form.validate_on_submit() else StepResult(False, "The form expired; try again."))
    return after(merchant, CREATE, result, moved=result.ok)


@bp.post("/merchants/<int:merchant_id>/steps/<step_key>/fill")
@roles_required(*STAFF)
def fill(merchant_id: int, step_key: str) -> ResponseReturnValue:
    """Sandbox only: store a scenario's test data as the step's draft."""
    merchant, step = load(merchant_id, step_key)
    scenario = chosen_scenario()
    result = service.save_step_draft(merchant, step, scenarios.form_data(scenario, step.key))
    if result.ok:
        result.message = f"Filled with test data for '{scenarios.LABELS[scenario]}'."
    return after(merchant, step, result)


@bp.post("/merchants/new/fill")
@roles_required(*STAFF)
def fill_new() -> ResponseReturnValue:
    """Sandbox only: start a merchant with a scenario's step 1 data."""
    scenario = chosen_scenario()
    merchant, errors = service.start_merchant(scenarios.form_data(scenario, "create"))
    if merchant is None:
        abort(409, errors[0].message)
    flash(f"Filled with test data for '{scenarios.LABELS[scenario]}'.", "success")
    return redirect(step_url(merchant, CREATE))


def load(merchant_id: int, step_key: str) -> tuple[Merchant, Step]:
    """The merchant and a step the wizard edits with a form, or 404."""
    merchant = service.get_merchant(merchant_id)
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
    drafts = service.drafts_of(merchant)
    stepper = service.stepper(merchant, drafts)
    status = next(s for s in stepper if s.step.key == step.key)
    draft = drafts.get(step.key)
    queued = queue.live_item(merchant.id, step.key) if draft and draft.state == StepState.QUEUED \
        else None
    return render_template("wizard/step.html", merchant=merchant, step=step, form=form,
                           stepper=stepper, draft=draft, lock_reason=status.lock_reason,
                           queued=queued, changes=changes)
