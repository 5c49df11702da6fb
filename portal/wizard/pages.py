"""The wizard's page helpers: the client, categories, what a send's outcome shows, masked values."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, url_for
from werkzeug.wrappers import Response

from portal.gateway.errors import GatewayError
from portal.gateway.rules import mask
from portal.gateway.shapes import FieldError
from portal.models.merchant import Merchant
from portal.onboarding.categories import cached_categories, grouped_choices
from portal.onboarding.result import StepResult
from portal.onboarding.sending import UNAVAILABLE
from portal.onboarding.steps import Step, next_step
from portal.redaction import is_secret_key
from portal.step_pages import step_url


def categories() -> dict[str, list[tuple[str, str]]]:
    """natureOfBusiness choices grouped by category, cached per app for an hour."""
    try:
        return grouped_choices(cached_categories())
    except GatewayError:
        flash("The business categories could not be loaded from the gateway; try again later.",
              "warning")
        return {}


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
    """Names the wizard's templates use (its read-only view of a step)."""
    return {"display_value": display_value}
