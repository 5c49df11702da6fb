"""The payments API's vocabulary: amount scopes and the field types its requests are checked with
(its status words are in words)."""

from __future__ import annotations

import re
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any

import pycountry
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    HttpUrl,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic.json_schema import SkipJsonSchema

from portal.gateway import rules


class AmountScope(StrEnum):
    """``captureType`` and ``refundType``: the full amount or a part of it."""

    FULL = "F"
    PARTIAL = "P"


# ---------------------------------------------------------------- field rules

_DECIMAL = re.compile(r"^[0-9]{1,15}(\.[0-9]{1,4})?$")
_CODE3 = re.compile(r"^[A-Z]{3}$")


def check_decimal(value: str) -> str:
    """A decimal string with at most 4 decimal places, such as ``"1250.50"``."""
    if not _DECIMAL.fullmatch(value):
        raise ValueError("Use a decimal number with at most 4 decimal places, e.g. 1250.50")
    return value


def check_amount(value: str) -> str:
    """A decimal string greater than zero."""
    if Decimal(check_decimal(value)) <= 0:
        raise ValueError("The amount must be greater than 0")
    return value


def check_currency(value: str) -> str:
    """An uppercase ISO 4217 currency code."""
    if not _CODE3.fullmatch(value) or pycountry.currencies.get(alpha_3=value) is None:
        raise ValueError("Use an uppercase ISO 4217 currency code, e.g. INR or USD")
    return value


def check_country(value: str) -> str:
    """An uppercase ISO 3166-1 alpha-3 country code."""
    if not _CODE3.fullmatch(value) or pycountry.countries.get(alpha_3=value) is None:
        raise ValueError("Use an uppercase ISO 3166-1 alpha-3 country code, e.g. IND or USA")
    return value


def check_url(value: str) -> str:
    """An absolute http(s) URL; the value is kept exactly as given."""
    try:
        _URL.validate_python(value)
    except ValidationError as exc:
        raise ValueError("Use an absolute http(s) URL") from exc
    return value


_URL = TypeAdapter(HttpUrl)


def _strictly_false(value: Any) -> Any:
    if value is not False:
        raise ValueError("captureTxn must be the JSON boolean false for an authorize-only payment")
    return value


def _strict_int(value: Any) -> Any:
    if type(value) is not int:
        raise ValueError("Use a whole number, not a string or decimal")
    return value


def _refuse(value: Any, info: ValidationInfo) -> Any:
    raise ValueError(f"{info.field_name} must not be sent in hosted checkout")


DecimalString = Annotated[str, AfterValidator(check_decimal)]
Amount = Annotated[str, AfterValidator(check_amount)]
Currency = Annotated[str, AfterValidator(check_currency)]
Country = Annotated[str, AfterValidator(check_country)]
MerchantTxnId = Annotated[
    str,
    AfterValidator(
        rules.check_pattern(re.compile(r"^[A-Za-z0-9]{4,50}$"), "Use 4 to 50 letters or digits")
    ),
]
MerchantUniqueId = Annotated[
    str,
    AfterValidator(
        rules.check_pattern(re.compile(r"^[A-Za-z0-9]{15,40}$"), "Use 15 to 40 letters or digits")
    ),
]
#: A field the hosted flow forbids: any value, even null, is refused with a clear message.
Refused = Annotated[SkipJsonSchema[Any], AfterValidator(_refuse)]
CallbackUrl = Annotated[str, Field(max_length=2048), AfterValidator(check_url)]
Quantity = Annotated[int, BeforeValidator(_strict_int), Field(ge=1)]
