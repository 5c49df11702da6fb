"""The API's answers about a merchant's documents, verification and health, payment links,
and the webhooks out's endpoints and deliveries (pydantic, as ``schemas`` are; the OpenAPI
document is generated from them)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.endpoints import DESCRIPTION_MAX, URL_MAX
from portal.features.api.schemas import Answer, PaymentOut


class GatewayLinkOut(Answer):
    """The gateway's single-use verification link, to embed or open within its lifetime."""

    url: str
    mintedAt: datetime
    expiresAt: datetime


class MerchantLinkOut(Answer):
    """A merchant's own verification link (a portal address), shown once."""

    id: int
    url: str
    expiresAt: datetime


class EmailedOut(Answer):
    """A fresh verification link emailed to the merchant's signatory (masked address)."""

    sentTo: str
    message: str


class VerificationOut(Answer):
    """Whether a verification link may be asked for now, and if not what is still missing."""

    open: bool
    done: bool
    missing: list[str]


class HealthLineOut(Answer):
    """One product (or the whole merchant, product ''): can it take payments now, and if not
    why, who must act and since when."""

    subject: str
    product: str
    ready: bool
    why: str
    who: str | None
    since: datetime | None
    action: str
    sentence: str


class HealthOut(Answer):
    """A merchant's health: ``live`` false (and no lines) while it is still onboarding."""

    live: bool
    status: str | None
    lines: list[HealthLineOut]


class PaymentLinkOut(Answer):
    """A payment link emailed to the customer, where it stands, and its hold."""

    id: int
    standing: str
    standingLabel: str
    expiresAt: datetime
    emailedAt: datetime | None
    emailsSent: int
    message: str
    payment: PaymentOut


#: A multipart file field, as OpenAPI names one.
UploadedFile = Annotated[Any, WithJsonSchema({"type": "string", "format": "binary"})]


class DocumentUpload(BaseModel):
    """A document for an outstanding slot: its type (one the slot accepts) and the file (PDF,
    JPEG or PNG, judged by its content, within the upload limit)."""

    model_config = ConfigDict(extra="forbid")

    docType: Annotated[str, Field(min_length=1, max_length=64)]
    file: UploadedFile


class DocumentOut(Answer):
    """One stored upload and what the gateway said to it."""

    id: int
    docType: str
    fileName: str
    size: int
    sha256: str
    status: str
    gatewayAnswer: str
    uploadedAt: datetime


class DocumentSlot(Answer):
    """A document the merchant still owes (``outstanding``) or may upload again, and the
    types that fit it."""

    key: str
    types: list[str]
    outstanding: bool


class DocumentsOut(Answer):
    """What to upload now, and the uploads so far, newest first."""

    slots: list[DocumentSlot]
    documents: list[DocumentOut]


class WebhookEndpointBody(BaseModel):
    """A new webhook endpoint: its https address (public: checked when it is added), what it
    is for, and the events to send there (at least one)."""

    model_config = ConfigDict(extra="forbid")

    url: Annotated[str, Field(max_length=URL_MAX)]
    description: Annotated[str, Field(max_length=DESCRIPTION_MAX)] = ""
    eventTypes: Annotated[list[EventType], Field(max_length=len(EventType))]


class WebhookEndpointOut(Answer):
    """A webhook endpoint of the partner's software (never its secret)."""

    id: int
    url: str
    description: str
    eventTypes: list[str]
    active: bool
    createdAt: datetime


class WebhookEndpointList(Answer):
    """Every webhook endpoint, newest first."""

    data: list[WebhookEndpointOut]


class WebhookSecretOut(Answer):
    """An endpoint and its new signing secret (``whsec_...``), shown in this answer only; a
    repeat with the same Idempotency-Key gives ``secret`` null."""

    endpoint: WebhookEndpointOut
    secret: str | None
    message: str


class DeliveryOut(Answer):
    """One event sent to an endpoint: ``eventId`` is its webhook-id (the same on every try and
    every send again); ``lastAnswer`` the last try's answer in words (null: not tried yet)."""

    id: int
    eventId: str
    eventType: str
    state: str
    stateLabel: str
    attempts: int
    lastAnswer: str | None
    deliveredAt: datetime | None
    createdAt: datetime


class DeliveryList(Answer):
    """An endpoint's latest deliveries, newest first."""

    data: list[DeliveryOut]
