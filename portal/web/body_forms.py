"""Forms whose data is a gateway request body (the wizard's steps, the payments hold).

Their fields are named after the body's JSON fields, so a form's data is the body and a gateway
error path (``[1].pan``, ``address.businessRegisteredAddress.zipcode``) names the field the error
is shown beside. The rules themselves are the shared shapes', checked when the body is sent.
What people type the way they write it elsewhere is tidied first (``typed_value``): a state code
in capitals ("mh"), an amount without thousands separators ("50,000", "5,00,000"), a phone
number without spaces ("98765 43210", an Indian mobile number getting its +91).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from wtforms import (
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    SelectChoice,
    SelectField,
    StringField,
)

from portal.core.labels import Kind, label
from portal.gateway import rules
from portal.gateway.shapes import FieldError
from portal.web.form_base import PortalForm

#: Examples shown under every field with a format, by field name.
EXAMPLES = {
    "externalOnboardingId": "pop-3f2a9c0d",
    "panNumber": "ABCCE1234F (company) or ABCPE1234F (person)",
    "pan": rules.PAN_EXAMPLE,
    "authSignatoryPan": rules.PAN_EXAMPLE,
    "gstNumber": rules.GSTIN_EXAMPLE,
    "bankIfscCode": rules.IFSC_EXAMPLE,
    "bankAccountNumber": "1234567890",
    "phone": rules.PHONE_EXAMPLE,
    "email": "owner@merchant.example",
    "zipcode": "400001",
    "stateCode": "MH",
    "purposeCode": "P0802",
    "websiteUrl": "https://merchant.example",
    "iec": "0123456789",
    "amount": "50000",
    "percentageOwnership": "51.5",
}
#: Amounts written with separators: 50,000 or 5,00,000 (Indian grouping) or 50 000.
_GROUPED_AMOUNT = re.compile(r"[0-9]{1,3}(?:[, ][0-9]{2,3})+")
#: What people put between a phone number's digits.
_PHONE_PUNCTUATION = re.compile(r"[\s().-]")
#: A ten-digit Indian mobile number typed without its calling code.
_INDIAN_MOBILE = re.compile(r"0?([6-9][0-9]{9})")
#: Typed values tidied before they are checked, by field name.
_TIDY = {
    "stateCode": lambda v: v.strip().upper(),
    "amount": lambda v: re.sub(r"[, ]", "", v.strip()) if _GROUPED_AMOUNT.fullmatch(v.strip())
    else v,
    "phone": lambda v: _international_phone(_PHONE_PUNCTUATION.sub("", v)),
    "phoneNumber": lambda v: _PHONE_PUNCTUATION.sub("", v),
    "zipcode": lambda v: v.replace(" ", ""),
}
#: The empty first choice of a select that must be chosen.
PLEASE_CHOOSE = SelectChoice("", "Choose…")
#: How many names of a field's place the error summary gives (an owner's row and its PAN).
SUMMARY_NAMES = 2


@dataclass(frozen=True)
class ErrorLink:
    """One line of a page's error summary: the id of the field (or group) the error is shown
    beside, where that is in words (the names leading to it, outermost first), the error."""

    target: str
    where: tuple[str, ...]
    message: str


def _international_phone(digits: str) -> str:
    indian = _INDIAN_MOBILE.fullmatch(digits)
    return f"+91{indian.group(1)}" if indian else digits


def typed_value(name: str, value: Any) -> Any:
    """``value`` of the field ``name`` as the gateway's rules want it written, when it only
    differs in how it was typed; anything else as it is (the rules then explain it)."""
    tidy = _TIDY.get(name)
    return tidy(value) if tidy is not None and isinstance(value, str) and value else value


def tidied(data: Any) -> Any:
    """Form data with every typed value tidied (``typed_value``), at any depth."""
    if isinstance(data, dict):
        return {key: tidied(typed_value(key, value)) for key, value in data.items()}
    if isinstance(data, list):
        return [tidied(item) for item in data]
    return data


def text_field(label: str, help_text: str = "") -> StringField:
    """A text field with its help line (the field's description)."""
    return StringField(label, description=help_text)


def labelled_select(text: str, values: Iterable[str], kind: Kind,
                    help_text: str = "") -> SelectField:
    """A select of ``values`` shown by their labels, with an empty first choice."""
    choices = [PLEASE_CHOOSE, *(SelectChoice(v, label(v, kind)) for v in values)]
    return SelectField(text, choices=choices, validate_choice=False, description=help_text)


def field_example(field: Field) -> str | None:
    """The example shown under ``field``, found by its name; None when it has none."""
    return EXAMPLES.get(field.short_name)


def register(app: Flask) -> None:
    """Make ``field_example`` a global of every template (the field macros show it)."""
    app.add_template_global(field_example, "field_example")


def form_path(path: str, root: str | None = None) -> list[str]:
    """A gateway field path as form field names: ``[1].pan`` -> ``owners, 1, pan``."""
    parts = [part for part in re.split(r"[.\[\]]+", path) if part]
    return [root, *parts] if root and parts else parts


class BodyForm(PortalForm):
    """Common machinery: the payload, and errors placed next to the field they name."""

    #: Form fields that are not body data.
    not_data: frozenset[str] = frozenset({"csrf_token"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.top_errors: list[str] = []
        self.nested_errors: dict[str, list[str]] = {}
        #: Every error placed beside a field or group, in the order given (the summary).
        self.error_links: list[ErrorLink] = []
        #: Only advisory checks stopped the send: the page offers "Send anyway".
        self.send_anyway_offered = False

    def payload(self) -> dict[str, Any]:
        """The form's data as the body's fields (no CSRF token), typed values tidied."""
        return tidied({key: value for key, value in self.data.items()
                       if key not in self.not_data})

    def show_errors(self, errors: Iterable[FieldError], root: str | None = None) -> None:
        """Put each error beside its field; a list or group gets it at its top, else the page.
        Each one placed is also listed in ``error_links``, for the summary atop the page."""
        for error in errors:
            chain = self._locate(form_path(error.field, root))
            if not chain:
                self.top_errors.append(error.message)
                continue
            target = chain[-1]
            if isinstance(target, FormField | FieldList):
                self.nested_errors.setdefault(target.name, []).append(error.message)
            else:
                target.errors = [*target.errors, error.message]
            self.error_links.append(ErrorLink(target.id, where(chain), error.message))

    def _locate(self, parts: list[str]) -> list[Field]:
        """The fields the path goes through, outermost first, down to the deepest one it
        reaches that people see (empty when not even its first part matches)."""
        found: list[Field] = []
        container: Any = self
        for part in parts:
            if isinstance(container, FieldList):
                if not part.isdigit() or int(part) >= len(container.entries):
                    break
                field = container.entries[int(part)]
            elif isinstance(container, Form | PortalForm) and part in container:
                field = container[part]
            else:
                break
            if isinstance(field, HiddenField):
                break  # e.g. a fee row's card network: the row itself is what people see
            found.append(field)
            container = field.form if isinstance(field, FormField) else field
        return found

    def row_action(self, action: str) -> bool:
        """Handle an add/remove row button; forms without rows have none."""
        return False


def title(field: Field, parent: Field | None = None) -> str:
    """What people call ``field`` on the page: its label, or for a row of a list the row's
    own ``title(number)`` (an owner, a card network) or the list's label and number."""
    if isinstance(parent, FieldList) and isinstance(field, FormField):
        number = parent.entries.index(field) + 1
        named = getattr(field.form, "title", None)
        return named(number) if callable(named) else f"{parent.label.text} {number}"
    return field.label.text


def where(chain: list[Field]) -> tuple[str, ...]:
    """A field's place in words from the fields leading to it: ``("Owner 2", "PAN")``."""
    names = [title(field, chain[index - 1] if index else None)
             for index, field in enumerate(chain)]
    return tuple(names[-SUMMARY_NAMES:])
