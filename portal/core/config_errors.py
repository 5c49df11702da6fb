"""What is wrong with the configuration's values, in sentences that name each variable (never
a library's message)."""

from __future__ import annotations

import os
import string
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

#: The choices of the variables that name one (checked in production).
CHOICES = {"MAIL_SECURITY": ("none", "starttls", "ssl"), "LOG_FORMAT": ("text", "json"),
           "SMS_SENDER": ("sink", "http"),
           "SMS_HTTP_CONTENT_TYPE": ("application/json", "application/x-www-form-urlencoded")}
#: Validation errors of numeric variables, and what the value is not.
NUMBER_ERRORS = {"float_parsing": "a number", "int_parsing": "a whole number",
                 "int_from_float": "a whole number"}
#: Validation errors of a bounded number, and the side of the bound.
RANGE_ERRORS = {"greater_than_equal": "at least", "less_than_equal": "at most",
                "greater_than": "more than"}
#: Production's least randomness in a secret the partner makes up (SECRET_KEY, PAN_INDEX_KEY,
#: METRICS_TOKEN, and each Fernet key), in bytes.
MIN_RANDOM_BYTES = 32
#: Bits a character can carry: a value of hex digits only holds 4 a character; any other holds
#: at most base64's 6 (a generated secret is hex or base64: docs/operator/configuration.md).
HEX_BITS, OTHER_BITS = 4, 6
#: A random value of 43 base64 characters or 64 hex digits has far more different characters
#: than this (a quarter of it the same character, or fewer, is a repetition, not randomness).
FEWEST_DIFFERENT = 12
TOO_SHORT = ("{variable} is too short to be a secret: production needs at least 32 random "
             "bytes, written as 64 hex digits or 43 base64 characters (see "
             "docs/operator/configuration.md, Secrets, for a command that makes one).")
NOT_RANDOM = ("{variable} does not look random (too few different characters, or one "
              "repeated): make one with a command of docs/operator/configuration.md, "
              "Secrets.")
UNREADABLE_FILE = "{variable} names {path}, which is not a file the portal can read."


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


def random_bytes(value: str) -> float:
    """The most bytes of randomness ``value`` can hold, judged by its length and alphabet: 4
    bits a character when it is all hex digits, 6 (base64's) otherwise; '=' padding is not
    counted."""
    text = value.strip().rstrip("=")
    bits = HEX_BITS if text and set(text) <= set(string.hexdigits) else OTHER_BITS
    return len(text) * bits / 8


def weak_secret(variable: str, value: str) -> str | None:
    """Why a secret (each comma-separated key of it) is too weak for production, or None; the
    sentence names the variable, never the value."""
    for key in (part.strip() for part in value.split(",") if part.strip()):
        if random_bytes(key) < MIN_RANDOM_BYTES:
            return TOO_SHORT.format(variable=variable)
        counts = Counter(key)
        if len(counts) < FEWEST_DIFFERENT or 4 * max(counts.values()) > len(key):
            return NOT_RANDOM.format(variable=variable)
    return None


def unreadable_file(variable: str, path: str) -> str | None:
    """Why the file ``variable`` names cannot be used (absent, or not readable), or None."""
    if Path(path).is_file() and os.access(path, os.R_OK):
        return None
    return UNREADABLE_FILE.format(variable=variable, path=path)


def production_problem(variables: Sequence[tuple[str, Any, Mapping[str, Any]]]) -> str | None:
    """What stops production from starting, in one line naming each variable, or None.

    ``variables``: each variable's name, value and options (``required``, ``random``).
    """
    values = {name: value for name, value, _options in variables}
    for name, choices in CHOICES.items():
        if values.get(name) not in choices:
            return f"{name} must be one of: " + ", ".join(choices) + "."
    missing = [name for name, value, options in variables if options["required"] and not value]
    if missing:
        return ("Missing configuration: " + ", ".join(missing)
                + ". Set them in the environment or a .env file "
                "(see docs/operator/configuration.md).")
    problems = [weak_secret(name, value) for name, value, options in variables
                if options["random"]]
    problems.append(unreadable_file("GATEWAY_PUBLIC_KEY_FILE",
                                    values.get("GATEWAY_PUBLIC_KEY_FILE", "")))
    return " ".join(problem for problem in problems if problem) or None
