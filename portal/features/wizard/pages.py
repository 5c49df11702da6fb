"""The wizard's page helpers: the business categories' choices, where a send's outcome leads and
what it shows, and a step's values in words for its read-only page."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import flash, redirect, request, url_for
from werkzeug.wrappers import Response
from wtforms import BooleanField, Field, FieldList, FormField, HiddenField
from wtforms.fields.choices import SelectFieldBase

from portal.core.models.merchant import Merchant
from portal.core.redaction import is_secret_key
from portal.domain.onboarding.categories import cached_categories, grouped_choices
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.sending import NEEDS_CORRECTING, UNAVAILABLE
from portal.domain.onboarding.steps import Step, next_step
from portal.features.wizard.forms import KEPT_CHOICE
from portal.gateway.errors import GatewayError
from portal.gateway.rules import mask
from portal.gateway.shapes import FieldError
from portal.web.auth.routes import safe_next
from portal.web.body_forms import title
from portal.web.step_pages import step_url

#: The step form's field naming the link a draft was saved on the way to.
LEAVE_TO = "leave_to"


def categories() -> dict[str, list[tuple[str, str]]]:
    """natureOfBusiness choices grouped by category, cached per app for an hour."""
    try:
        return grouped_choices(cached_categories())
    except GatewayError:
        flash("The business categories could not be loaded from the gateway; try again later.",
              "warning")
        return {}


def after(merchant: Merchant, step: Step, result: StepResult, moved: bool = False) -> Response:
    """Flash the outcome; go to the next step after a send that went through, to the link
    the user was leaving for after a draft saved on the way (``static/js/keep-typing.js``),
    else stay."""
    flash(result.message, "warning" if result.queued_until or result.needs_follow_up
          else "success" if result.ok else "error")
    leaving_for = request.form.get(LEAVE_TO, "")
    if result.ok and not moved and leaving_for:
        return redirect(safe_next(leaving_for))
    following = next_step(step) if moved else step
    return redirect(step_url(merchant, following) if following
                    else url_for("merchants.detail", merchant_id=merchant.id))


def page_errors(message: str, unavailable: bool, errors: list[FieldError]) -> list[FieldError]:
    """A failed send's errors for the form: its message on top, unless the banner says it or
    it only heads the error summary ("Some fields need correcting", said once)."""
    if unavailable or (message == NEEDS_CORRECTING and errors):
        return errors
    return [FieldError("", message), *errors]


def stored_errors(last_error: dict[str, Any]) -> list[FieldError]:
    """The errors of a step's last failed send, as stored with its draft."""
    fields = [FieldError(e.get("field", ""), e.get("message", ""))
              for e in last_error.get("fields", [])]
    return page_errors(last_error.get("message", ""),
                       last_error.get("kind") == UNAVAILABLE, fields)


@dataclass
class Part:
    """A piece of a read-only step, in the form's order: a run of plain fields (one list of
    label and value), or a group (sub-form, list, or a list's row) under its title."""

    fields: list[Field] = field(default_factory=list)
    group: Any = None
    title: str = ""


def value_parts(container: Any) -> list[Part]:
    """``container``'s fields as a read-only page lays them out; groups with no value at all
    (an operating address that is the registered one, fees of a product not chosen) are left
    out, and the rows of a list are each a group under the row's own title."""
    if isinstance(container, FieldList):
        return [Part(group=row, title=title(row, container)) for row in container
                if has_values(row)]
    parts: list[Part] = []
    for item in container:
        if isinstance(item, HiddenField):
            continue  # the CSRF token, the draft version, a fee row's card network
        if isinstance(item, FormField | FieldList):
            if has_values(item):
                parts.append(Part(group=item, title=item.label.text))
        elif parts and parts[-1].group is None:
            parts[-1].fields.append(item)
        else:
            parts.append(Part(fields=[item]))
    return parts


def has_values(container: Any) -> bool:
    """Whether anything was typed or chosen in a group (a tick alone does not count)."""
    for item in container:
        if isinstance(item, FormField | FieldList):
            if has_values(item):
                return True
        elif not isinstance(item, HiddenField | BooleanField) and shown_values(item):
            return True
    return False


def shown_values(item: Field) -> list[str]:
    """A field's value in words: a choice by its label (a business category with its group),
    a tick as Yes or No, PANs and account numbers masked; nothing when it is blank."""
    if isinstance(item, BooleanField):
        return ["Yes" if item.data else "No"]
    if isinstance(item, SelectFieldBase):
        return chosen_labels(item)
    return [] if item.data in (None, "") else [shown(item.short_name, item.data)]


def chosen_labels(item: SelectFieldBase) -> list[str]:
    """The labels of what a select or a set of checkboxes has chosen (the empty choice is no
    choice)."""
    groups = item.iter_groups() if item.has_groups() else [(None, item.iter_choices())]
    return [f"{choice.label} ({group})" if group and group != KEPT_CHOICE else choice.label
            for group, choices in groups for choice in choices
            if choice.selected and choice.value]


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
    return {"value_parts": value_parts, "shown_values": shown_values}
