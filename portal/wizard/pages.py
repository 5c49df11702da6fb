"""What the wizard, documents and merchants pages share: access, the client, page helpers."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from portal.clients import current_onboarding_client
from portal.config import current_settings
from portal.gateway.errors import GatewayError
from portal.gateway.rules import mask
from portal.gateway.shapes import FieldError
from portal.labels import TABLES, Kind
from portal.models.merchant import Merchant
from portal.models.user import Role
from portal.onboarding import scenarios
from portal.onboarding.categories import CategoryCache, grouped_choices
from portal.onboarding.result import StepResult
from portal.onboarding.sending import UNAVAILABLE
from portal.onboarding.steps import STEPS, Step, next_step
from portal.redaction import is_secret_key
from portal.wizard.forms import EXAMPLES

#: Who may onboard merchants.
STAFF = (Role.OPS, Role.ADMIN)
CATEGORY_CACHE = "portal_category_cache"
#: Steps whose page is not the wizard's form page.
PAGE_ENDPOINTS = {"documents": "documents.step", "verification": "verification.page",
                  "status": "status.page"}
STATE_LABELS = TABLES[Kind.STEP_STATE]


def categories() -> dict[str, list[tuple[str, str]]]:
    """natureOfBusiness choices grouped by category, cached per app for an hour."""
    cache = current_app.extensions.setdefault(CATEGORY_CACHE, CategoryCache())
    try:
        return grouped_choices(cache.get(
            lambda: current_onboarding_client().get_business_categories().categories))
    except GatewayError:
        flash("The business categories could not be loaded from the gateway; try again later.",
              "warning")
        return {}


def chosen_scenario() -> str:
    """The scenario picked in the form; 404 when this is not a sandbox."""
    scenario = request.form.get("scenario", "")
    if not current_settings().gateway_is_sandbox or scenario not in scenarios.LABELS:
        abort(404)
    return scenario


def step_url(merchant: Merchant, step: Step) -> str:
    """The page of ``step`` for ``merchant``."""
    if step.key in PAGE_ENDPOINTS:
        return url_for(PAGE_ENDPOINTS[step.key], merchant_id=merchant.id)
    return url_for("wizard.step", merchant_id=merchant.id, step_key=step.key)


def after(merchant: Merchant, step: Step, result: StepResult, moved: bool = False) -> Response:
    """Flash the outcome; go to the next step after a send that went through, else stay."""
    flash(result.message, "warning" if result.queued_until or result.needs_follow_up
          else "success" if result.ok else "error")
    following = next_step(step) if moved else step
    return redirect(step_url(merchant, following) if following
                    else url_for("merchants.detail", merchant_id=merchant.id))


def page_errors(message: str, unavailable: bool, errors: list[FieldError]) -> list[FieldError]:
    """A failed send's errors for the form: its message on top, unless the banner says it."""
    return errors if unavailable else [FieldError("", message), *errors]


def stored_errors(last_error: dict[str, Any]) -> list[FieldError]:
    """The errors of a step's last failed send, as stored with its draft."""
    fields = [FieldError(e.get("field", ""), e.get("message", ""))
              for e in last_error.get("fields", [])]
    return page_errors(last_error.get("message", ""),
                       last_error.get("kind") == UNAVAILABLE, fields)


def display_value(field: Any) -> str:
    """A field's value for a read-only page: PANs and account numbers masked."""
    return shown(field.short_name, field.data)


def shown(name: str, value: Any) -> str:
    """A value as pages may show it: PANs and account numbers masked, blanks as a dash."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if value in (None, "", []):
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    secret = is_secret_key(name) or name.lower().startswith("pan")  # panNumber too
    return mask(str(value)) if secret else str(value)


def template_helpers() -> dict[str, Any]:
    """Names the wizard's templates use."""
    return {
        "all_steps": STEPS,
        "state_labels": STATE_LABELS,
        "step_url": step_url,
        "next_step": next_step,
        "display_value": display_value,
        "field_example": lambda field: EXAMPLES.get(field.short_name),
        "scenario_choices": scenarios.CHOICES if current_settings().gateway_is_sandbox
        else None,
    }
