"""What is wrong with the configuration's values, in sentences that name each variable (never
a library's message)."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

#: Validation errors of numeric variables, and what the value is not.
NUMBER_ERRORS = {"float_parsing": "a number", "int_parsing": "a whole number",
                 "int_from_float": "a whole number"}
#: Validation errors of a bounded number, and the side of the bound.
RANGE_ERRORS = {"greater_than_equal": "at least", "less_than_equal": "at most",
                "greater_than": "more than"}


def bad_values_text(error: ValidationError, variables: Mapping[str, str]) -> str:
    """One sentence per bad value; ``variables`` maps each settings field to its variable."""
    return " ".join(_sentence(detail, variables) for detail in error.errors())


def _sentence(detail, variables: Mapping[str, str]) -> str:
    key = str(detail["loc"][0]) if detail["loc"] else ""
    variable = variables.get(key, key)
    kind = NUMBER_ERRORS.get(detail["type"])
    if kind:
        return f"{variable} is not {kind}: {detail['input']!r}."
    bound = RANGE_ERRORS.get(detail["type"])
    if bound:
        limit = next(iter(detail.get("ctx", {}).values()), "")
        return f"{variable} must be {bound} {limit}: {detail['input']!r}."
    if detail["type"] == "value_error":  # the settings' own checks speak in sentences
        reason = str(detail["msg"]).removeprefix("Value error, ")
        return f"{variable} has a value the portal cannot use: {reason}."
    return f"{variable} has a value the portal cannot use."
