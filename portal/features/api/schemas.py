"""The API's own typed models: its answers and its lists' queries (pydantic, as the gateway's
request shapes are). The OpenAPI document is generated from them and from the gateway's
request shapes the bodies are validated with."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from portal.domain.api.scopes import Scope
from portal.gateway.payments.requests import PaymentData, RiskData
from portal.gateway.payments.vocabulary import Amount, MerchantTxnId, MerchantUniqueId
from portal.gateway.shapes import RequestModel

Limit = Annotated[int, Field(ge=1, le=100)]
Text = Annotated[str, Field(max_length=200)]


class Answer(BaseModel):
    """What every answer model shares: no field beyond those it names."""

    model_config = ConfigDict(extra="forbid")


class ProductState(Answer):
    """One product the merchant asked for, and where its acceptance stands."""

    product: str
    name: str
    standing: str
    words: str
    acceptedAt: datetime | None
    waitsFor: str
    heldUpBy: list[str]


class MerchantOut(Answer):
    """A merchant as the portal knows it."""

    id: int
    externalOnboardingId: str
    onboardingId: str | None
    name: str
    status: str | None
    statusLabel: str
    createState: str
    checklist: dict[str, str]
    documentsOutstanding: list[str]
    products: list[ProductState] | None
    createdAt: datetime
    lastActivityAt: datetime


class MerchantList(Answer):
    """One page of merchants, oldest first; ``nextCursor`` fetches the next, None at the end."""

    data: list[MerchantOut]
    nextCursor: str | None


class MerchantQuery(BaseModel):
    """The merchants list's filters, as on its page: a search and a status."""

    model_config = ConfigDict(extra="forbid")

    q: Text = ""
    status: Annotated[str, Field(max_length=32)] = ""
    limit: Limit = 20
    cursor: Annotated[str, Field(max_length=40)] = ""


class RefundOut(Answer):
    """One refund of a payment."""

    merchantTxnId: str
    amount: str | None
    status: str
    createdAt: datetime


class PaymentOut(Answer):
    """A hold and what became of it."""

    id: int
    merchantId: int
    merchantTxnId: str
    gid: str | None
    status: str
    statusLabel: str
    amount: str
    currency: str
    capturedAmount: str | None
    redirectUrl: str | None
    refunds: list[RefundOut]
    actionsAllowed: list[str]
    createdAt: datetime


class PaymentList(Answer):
    """One page of payments, oldest first; ``nextCursor`` fetches the next, None at the end."""

    data: list[PaymentOut]
    nextCursor: str | None


class PaymentQuery(BaseModel):
    """The payments list's filters, as on its page."""

    model_config = ConfigDict(extra="forbid")

    merchantId: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = None
    q: Text = ""
    status: Annotated[str, Field(max_length=32)] = ""
    limit: Limit = 20
    cursor: Annotated[str, Field(max_length=40)] = ""


class ActionBody(BaseModel):
    """A capture, release or refund: the amount (none: the whole of what is left)."""

    model_config = ConfigDict(extra="forbid")

    amount: Amount | None = None
    #: A refund identical to one sent minutes ago is refused unless this says it is meant.
    again: bool = False


class ProblemDetail(BaseModel):
    """An error, RFC 9457: ``errors`` names each field at its gateway path."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[dict[str, str]] | None = None


class KeyInfo(Answer):
    """The calling key, as its admins see it."""

    name: str
    scopes: list[Scope]


class HoldBody(RequestModel):
    """A new hold: the order's reference and the payment's data, as the hold form takes them
    (the portal adds authorize-only and its callback)."""

    merchantTxnId: MerchantTxnId
    merchantUniqueId: MerchantUniqueId | None = None
    paymentData: PaymentData
    riskData: RiskData | None = None


class StepBody(BaseModel):
    """A step's data as its page's form holds it (fields named by the gateway's paths), and
    the draft version it was read at (none: overwrite whatever is stored)."""

    model_config = ConfigDict(extra="forbid")

    data: dict[str, Any]
    version: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = None


class StepOut(Answer):
    """Where a step stands after a save or a send, and the merchant as it now is."""

    step: str
    message: str
    version: int | None
    merchant: MerchantOut
