"""Request and response shapes of the hosted-checkout authorize-only payments API, defined once.

The client validates bodies with these models before signing them; the sandbox validates the
bodies it receives with the same models (spec 2.1-2.5, as docs/gateway-contract.md reads them).
"""

from __future__ import annotations

import re
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Literal, Self

import pycountry
from pydantic import (
    AfterValidator,
    AliasChoices,
    BeforeValidator,
    ConfigDict,
    Field,
    HttpUrl,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from portal.gateway import rules
from portal.gateway.onboarding.shapes import Operation
from portal.gateway.payments.words import CALL_OUTCOME_WORDS
from portal.gateway.shapes import (
    CallingCode,
    Email,
    Envelope,
    FieldError,
    NationalPhone,
    NonEmpty,
    RequestModel,
    ResponseModel,
)

PREFIX = "/gl/v1/payments"
#: The hosted checkout initiate path.
INITIATE_PATH = PREFIX + "/initiate/hosted"


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


# ---------------------------------------------------------------- initiate


class BillingData(RequestModel):
    """The payer's billing details (spec 2.3); which are mandatory is not documented."""

    firstName: NonEmpty | None = None
    lastName: NonEmpty | None = None
    emailId: Email | None = None
    callingCode: CallingCode | None = None
    phoneNumber: NationalPhone | None = None
    addressStreet1: NonEmpty | None = None
    addressStreet2: NonEmpty | None = None
    addressCity: NonEmpty | None = None
    addressState: NonEmpty | None = None
    addressStateCode: NonEmpty | None = None
    addressPostalCode: NonEmpty | None = None
    addressCountry: Country | None = None


class PaymentData(RequestModel):
    """What is to be authorised (spec 2.2)."""

    totalAmount: Amount
    txnCurrency: Currency
    billingData: BillingData | None = None


class CustomerData(RequestModel):
    """The customer, for the fraud check."""

    merchantAssignedCustomerId: NonEmpty | None = None
    firstName: NonEmpty | None = None
    lastName: NonEmpty | None = None
    emailId: Email | None = None
    callingCode: CallingCode | None = None
    mobileNumber: NationalPhone | None = None


class ShippingData(RequestModel):
    """Where the order goes, for the fraud check."""

    firstName: NonEmpty | None = None
    lastName: NonEmpty | None = None
    emailId: Email | None = None
    addressStreet1: NonEmpty | None = None
    addressStreet2: NonEmpty | None = None
    addressCity: NonEmpty | None = None
    addressState: NonEmpty | None = None
    addressPostalCode: NonEmpty | None = None
    addressCountry: Country | None = None


class OrderItem(RequestModel):
    """One line of the order."""

    itemId: NonEmpty | None = None
    itemName: NonEmpty | None = None
    itemQuantity: Quantity | None = None
    itemPrice: DecimalString | None = None
    itemCategory: NonEmpty | None = None


class RiskData(RequestModel):
    """Fraud-check data (spec 2.4)."""

    customerData: CustomerData | None = None
    shippingData: ShippingData | None = None
    orderData: Annotated[list[OrderItem], Field(max_length=100)] | None = None


class InitiateRequest(RequestModel):
    """Initiate an authorize-only hosted-checkout payment (spec 2.1)."""

    merchantTxnId: MerchantTxnId
    merchantUniqueId: MerchantUniqueId | None = None
    captureTxn: Annotated[Literal[False], BeforeValidator(_strictly_false)]
    paymentData: PaymentData
    riskData: RiskData | None = None
    merchantCallbackURL: CallbackUrl
    # hosted checkout: the customer gives card details on the gateway's page, never to us
    cardData: Refused = None
    tokenData: Refused = None
    standingInstruction: Refused = None
    authenticationData: Refused = None


# ---------------------------------------------------------------- follow-up operations


def _partial_needs_amount(scope: AmountScope, amount: str | None, kind: str) -> list[FieldError]:
    if scope is AmountScope.PARTIAL and amount is None:
        return [FieldError("paymentData.totalAmount", f"Required for a partial {kind}")]
    return []


class CaptureAmount(RequestModel):
    """How much to capture."""

    totalAmount: Amount


class CaptureRequest(RequestModel):
    """Capture the held amount or part of it; once per authorisation.

    The openapi sample ``{"captureType": "F"}`` is valid: merchantTxnId is optional, though a
    capture that has one can be looked up on its own (status by merchantTxnId).
    """

    merchantTxnId: MerchantTxnId | None = None
    captureType: AmountScope
    paymentData: CaptureAmount | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """A partial capture names its amount."""
        amount = self.paymentData.totalAmount if self.paymentData else None
        return _partial_needs_amount(self.captureType, amount, "capture")


class AuthReversalRequest(RequestModel):
    """Release the hold in full; only before capture. ``{}`` is valid (openapi sample)."""

    merchantTxnId: MerchantTxnId | None = None


class RefundAmount(RequestModel):
    """How much to refund; the currency defaults to the payment's (docs refund-service)."""

    totalAmount: Amount
    txnCurrency: Currency | None = None


class RefundRequest(RequestModel):
    """Refund a captured payment in full or in part; refunds together at most the capture.

    The body of the official PHP SDK (refund.php), with the docs' variant (no txnCurrency).
    """

    merchantTxnId: MerchantTxnId
    merchantUniqueId: MerchantUniqueId | None = None
    refundType: AmountScope
    paymentData: RefundAmount | None = None
    merchantCallbackURL: CallbackUrl | None = None

    def cross_field_errors(self) -> list[FieldError]:
        """A partial refund names its amount."""
        amount = self.paymentData.totalAmount if self.paymentData else None
        return _partial_needs_amount(self.refundType, amount, "refund")


# ---------------------------------------------------------------- responses


class InitiateData(ResponseModel):
    """``data`` of the initiate answer (spec 2.5): where to send the customer, where to poll.

    Only ``redirectUrl`` is certain: the docs' examples carry ``{gid, redirectUrl, status}`` alone
    (docs/gateway-contract.md, "Reading answers"), so without a ``statusUrl`` the status is read by
    gid."""

    redirectUrl: str
    statusUrl: str | None = None
    merchantTxnId: str | None = None
    gid: str | None = None
    status: str | None = None


class CardData(ResponseModel):
    """The card the customer paid with, as the status answer shows it (masked)."""

    maskedCardNumber: str | None = None
    cardScheme: str | None = None
    cardType: str | None = None


class PaymentStatusData(ResponseModel):
    """``data`` of the status answer (docs/gateway-facts.md B6, D and E).

    ``gid`` is the payment's order id (the initiate's); some answers have none. ``status`` is
    the payment's state; an answer may carry it only in the envelope, or not at all
    (:attr:`StatusResponse.payment_status`). Amounts come under three names and the currency
    under two (:attr:`amount`, :attr:`currency`). There are no running totals a client may rely
    on: it keeps its own ledger. Read by a capture's or refund's merchantTxnId, ``merchantTxnId``
    and the amount are that action's.
    """

    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True, populate_by_name=True)

    gid: str | None = None
    status: str | None = None
    merchantTxnId: str | None = None
    merchantUniqueId: str | None = None
    Amount: str | None = None
    totalAmount: str | None = None
    amount_: str | None = Field(default=None, alias="amount")
    Currency: str | None = None
    txnCurrency: str | None = None
    currency_: str | None = Field(default=None, alias="currency")
    capturedAmount: str | None = None
    captureAmount: str | None = None
    reasonCode: str | None = None
    detailedMessage: str | None = None
    transactionCreationTime: str | None = None
    paymentMethod: str | None = Field(
        default=None, alias="payment-method",
        validation_alias=AliasChoices("paymentMethod", "payment-method"))
    CardBrand: str | None = None
    cardData: CardData | None = None

    @property
    def amount(self) -> str | None:
        """The amount: ``totalAmount``, ``Amount`` or ``amount``, whichever came."""
        return self.totalAmount or self.Amount or self.amount_

    @property
    def currency(self) -> str | None:
        """The payment's currency: ``txnCurrency``; ``Currency`` may be a settlement or display
        currency, so it is read only when ``txnCurrency`` is absent."""
        return self.txnCurrency or self.Currency or self.currency_

    @property
    def captured(self) -> str | None:
        """The captured amount, where the answer says: ``capturedAmount`` or ``captureAmount``."""
        return self.capturedAmount or self.captureAmount


class ActionData(ResponseModel):
    """``data`` of a capture or reversal answer: documented loosely (B3, B4), so all optional.
    ``originalGid`` names the payment the action was for (openapi's refund)."""

    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True)

    gid: str | None = None
    originalGid: str | None = None
    status: str | None = None
    merchantTxnId: str | None = None
    Amount: str | None = None
    detailedMessage: str | None = None


class RefundData(ResponseModel):
    """``data`` of the refund answer, in the three shapes the sources show
    (docs/gateway-contract.md, "Reading answers"): the official PHP SDK's recording
    (``refundAmount``, ``refundCurrency``), the docs' ``Amount`` and ``Currency``, and the docs'
    refund page (``gid``, ``refundId``, ``refundType``, ``refundStatus``, ``refundAmount``,
    ``currency``). ``gid`` and ``refundId`` are the refund's own ids."""

    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True)

    merchantTxnId: str | None = None
    gid: str | None = None
    originalGid: str | None = None
    refundId: str | None = None
    refundType: str | None = None
    refundStatus: str | None = None
    status: str | None = None
    detailedMessage: str | None = None
    refundCurrency: str | None = Field(
        default=None, validation_alias=AliasChoices("refundCurrency", "Currency", "currency"))
    refundAmount: str | None = Field(
        default=None, validation_alias=AliasChoices("refundAmount", "Amount"))


class InitiateResponse(Envelope):
    """The whole initiate answer: a gid (the envelope's or ``data.gid``) and a redirectUrl."""

    data: InitiateData

    @model_validator(mode="after")
    def _names_the_payment(self) -> Self:
        if not self.payment_gid:
            raise ValueError("The initiate answer names no gid")
        return self

    @property
    def payment_gid(self) -> str:
        """The payment's id, the one every later call names: the envelope's gid (spec 2.5; in
        2025 an order id ``gl_o-...``), else ``data.gid`` (the docs)."""
        return self.gid or self.data.gid or ""


class StatusResponse(Envelope):
    """The whole status answer. Its envelope ``gid`` identifies this answer only, never the
    payment (revision 4)."""

    data: PaymentStatusData

    @property
    def payment_gid(self) -> str:
        """The payment's order id as the answer names it (``data.gid``); '' when it names none."""
        return self.data.gid or ""

    @property
    def payment_status(self) -> str | None:
        """The payment's state: ``data.status``, else the envelope's status when it is a
        transaction word; None when the answer says only how the API call went (an envelope
        SUCCESS, FAILURE or CREATED alone)."""
        if self.data.status and self.data.status.strip():
            return self.data.status.strip()
        word = (self.status or "").strip()
        return word if word and word.upper() not in CALL_OUTCOME_WORDS else None


class ActionResponse(Envelope):
    """The whole capture or reversal answer. The envelope ``gid`` is this action's own."""

    data: ActionData | None = None

    @property
    def original_gid(self) -> str:
        """The payment the answer says the action was for ('' when it does not say)."""
        return (self.data.originalGid or "") if self.data else ""


class RefundResponse(Envelope):
    """The whole refund answer. The envelope ``gid`` (or ``data.gid``) is the refund's own."""

    data: RefundData | None = None

    @property
    def original_gid(self) -> str:
        """The payment the answer says the refund was for ('' when it does not say)."""
        return (self.data.originalGid or "") if self.data else ""


# ---------------------------------------------------------------- callback

class CallbackClaims(ResponseModel):
    """The claims of the ``x-gl-token`` posted back to the merchant's callback, as the PHP SDK
    recorded them (2021) and a UAT session shows the pre-signed token (2025): ``gid`` and
    ``x-gl-orderId`` name the payment by its order id (the initiate's); ``x-gl-gid`` is, in
    2025, a second id of the transaction; ``merchantUniqueId`` and ``merchantTxnId`` are ours.
    ``status`` may be absent (the status read decides anyway); ``iat`` is epoch milliseconds or
    seconds, a string or a number; ``exp`` a lifetime in ms (docs/gateway-contract.md, rev. 4)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    gid: str | None = None
    status: str | None = None
    statusUrl: str | None = None
    merchantUniqueId: str | None = None
    gidHeader: str | None = Field(default=None, alias="x-gl-gid")
    orderId: str | None = Field(default=None, alias="x-gl-orderId")
    merchantId: str | None = Field(default=None, alias="x-gl-merchantId")
    iat: str | int
    exp: int | str | None = None
    merchantTxnId: str | None = None
    reasonCode: str | None = None

    @property
    def order_ids(self) -> tuple[str, ...]:
        """The payment's order id as the token names it (``gid``, ``x-gl-orderId``)."""
        return tuple(dict.fromkeys(i for i in (self.gid, self.orderId) if i))

    @property
    def transaction_id(self) -> str:
        """The transaction id (``x-gl-gid``) when it differs from the order id; ''."""
        found = self.gidHeader or ""
        return "" if found in self.order_ids else found

    def names_a_payment(self) -> bool:
        """Whether the token names a payment by any id a receiver can match."""
        return bool(self.order_ids or self.gidHeader or self.merchantUniqueId
                    or self.merchantTxnId)


# ---------------------------------------------------------------- operations

_PAYMENT = PREFIX + "/{gid}"

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation("initiate", "POST", INITIATE_PATH, InitiateRequest, InitiateResponse,
                  "Initiate an authorize-only hosted-checkout payment"),
        Operation("status", "GET", PREFIX + "/{id}/status", None, StatusResponse,
                  "Get a payment's status by its gid or a merchantTxnId"),
        Operation("capture", "POST", _PAYMENT + "/capture", CaptureRequest, ActionResponse,
                  "Capture an authorised payment (once)"),
        Operation("auth_reversal", "POST", _PAYMENT + "/auth-reversal", AuthReversalRequest,
                  ActionResponse, "Release an authorised hold"),
        Operation("refund", "POST", _PAYMENT + "/refund", RefundRequest, RefundResponse,
                  "Refund a captured payment in full or in part"),
    )
}

