"""The onboarding API's two notification channels, defined once (docs/gateway-contract.md,
"Partner onboarding": a message or a webhook is a hint, the status call decides).

- postMessage from the verification page to its parent: ``{eventName, eventData{onboardingId,
  stepName}}``, posted to the callBackUrl's exact origin. The gateway's iframe pages
  (docs/gateway-facts.md A7) also show a bare string ``PARTNER_MERCHANT_VERIFICATION_COMPLETE`` and
  ``{eventName: PARTNER_MERCHANT_VERIFICATION_REDIRECT, eventData{uri, stepName: DIGILOCKER,
  subStepId}}``, which asks the parent to open ``uri`` outside the frame.
- Webhooks (docs/gateway-facts.md A8): a flat JSON object of strings with ``onboarding_id``,
  ``onboarding_status``, ``event_timestamp`` (epoch ms), ``status`` (the event name) and the
  event's own keys; the sandbox adds ``event_id`` so receivers can deduplicate.
"""

from __future__ import annotations

from enum import StrEnum
from urllib.parse import urlsplit

#: Ports left out of an origin because they are the scheme's default.
DEFAULT_PORTS = {"http": 80, "https": 443}


class MessageName(StrEnum):
    """The ``eventName`` of a message from the verification page to its parent window."""

    STEP = "PARTNER_MERCHANT_VERIFICATION_STEP"
    COMPLETE = "PARTNER_MERCHANT_VERIFICATION_COMPLETE"
    CLOSED = "PARTNER_MERCHANT_VERIFICATION_CLOSED"
    REDIRECT = "PARTNER_MERCHANT_VERIFICATION_REDIRECT"


class StepName(StrEnum):
    """The ``stepName`` of a STEP message: the step just completed."""

    TNC = "TNC"
    DIGILOCKER = "DIGILOCKER"
    VKYC = "VKYC"


def origin_of(url: str) -> str:
    """The origin of an absolute URL: scheme, host and a non-default port ('' for '')."""
    if not url:
        return ""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    if port is not None and port != DEFAULT_PORTS.get(parts.scheme):
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"


class WebhookEventName(StrEnum):
    """The onboarding webhook events (the ``status`` key of a payload)."""

    TNC_ACKNOWLEDGED = "MERCHANT_TERMS_AND_CONDITIONS_ACKNOWLEDGED"
    DIGILOCKER_COMPLETED = "MERCHANT_DIGILOCKER_CKYC_COMPLETED"
    VKYC_COMPLETED = "MERCHANT_VKYC_COMPLETED"
    STATUS_ACCEPTED = "MERCHANT_STATUS_ACCEPTED"
    PENDENCY_UPDATED = "MERCHANT_PENDENCY_STATUS_UPDATED"
    #: One product accepted (``portal.gateway.onboarding.product_events``); the overall event's
    #: keys.
    CARDS_ACCEPTED = "MERCHANT_CARDS_ACCEPTED"
    MCA_ACCEPTED = "MERCHANT_MCA_ACCEPTED"
    #: The multi-currency account opened: ``merchant_id`` and ``ucic_id``, two different ids.
    VIRTUAL_ACCOUNT_PROVISIONED = "VIRTUAL_ACCOUNT_PROVISIONED"


class WebhookKey(StrEnum):
    """The common keys of every webhook payload."""

    EVENT_ID = "event_id"
    ONBOARDING_ID = "onboarding_id"
    ONBOARDING_STATUS = "onboarding_status"
    EVENT_TIMESTAMP = "event_timestamp"
    EVENT_NAME = "status"


#: MERCHANT_STATUS_ACCEPTED's own key (also the per-product events' and
#: VIRTUAL_ACCOUNT_PROVISIONED's): the merchant's id at the gateway, offered as its MID.
MERCHANT_ID_KEY = "merchant_id"
#: VIRTUAL_ACCOUNT_PROVISIONED's other id, the UCIC: kept apart from ``merchant_id``.
UCIC_ID_KEY = "ucic_id"


class PendencyKey(StrEnum):
    """MERCHANT_PENDENCY_STATUS_UPDATED's own keys (docs/gateway-facts.md A8): what holds the
    merchant up, where it stands, and which approvals it blocks ("true" / "false")."""

    CATEGORY = "pendency_info_category"
    SUB_CATEGORY = "pendency_info_sub_category"
    REASON = "pendency_info_reason"
    STATUS = "pendency_info_status"
    CREATION_TIME = "pendency_info_creation_time"
    CARDS_APPROVAL_BLOCKING = "pendency_info_cards_approval_blocking"
    MCA_APPROVAL_BLOCKING = "pendency_info_mca_approval_blocking"
