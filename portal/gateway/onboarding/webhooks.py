"""The partner's webhook registration: its request and answers (docs/gateway-facts.md A8)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, HttpUrl

from portal.gateway.shapes import (
    RequestModel,
    ResponseModel,
)


class WebhookRegistrationRequest(RequestModel):
    """Register where the partner's onboarding events are POSTed (docs/gateway-facts.md A1, A8)."""

    webhookUrl: Annotated[HttpUrl, Field(max_length=2048)]


class Webhook(ResponseModel):
    """One registered webhook: its id at the gateway and its URL."""

    webhookId: str
    webhookUrl: str


class WebhookList(ResponseModel):
    """``data`` of the webhook list."""

    webhooks: list[Webhook] = Field(default_factory=list)
