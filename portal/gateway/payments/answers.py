"""The payments API's answers and the callback token's claims, read tolerantly as docs/gateway-
contract.md reads them (revisions 3 and 4)."""

from __future__ import annotations

from typing import Self

from pydantic import (
    AliasChoices,
    ConfigDict,
    Field,
    model_validator,
)

from portal.gateway.payments.words import CALL_OUTCOME_WORDS
from portal.gateway.shapes import (
    Envelope,
    ResponseModel,
)


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
