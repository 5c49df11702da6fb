"""Signing a delivery as the Standard Webhooks specification says, with its library: the
``webhook-id`` (the event's id, the same on every try), ``webhook-timestamp`` and
``webhook-signature`` headers. During a secret's rotation both secrets sign, so a receiver
that knows either one verifies the delivery."""

from __future__ import annotations

import base64
import secrets
from datetime import datetime

from standardwebhooks.webhooks import Webhook

from portal.core.models.partner_webhook import PartnerEndpoint

#: The prefix the specification gives secrets.
SECRET_PREFIX = "whsec_"  # noqa: S105  # nosec B105  # a prefix, not a secret


def new_secret() -> str:
    """A fresh signing secret: ``whsec_`` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def signing_secrets(endpoint: PartnerEndpoint, now: datetime) -> list[str]:
    """The secrets that sign a delivery to ``endpoint`` at ``now``: the current one, and the
    previous one until its rotation's end."""
    found = [endpoint.secret]
    if (endpoint.previous_secret and endpoint.previous_expires_at is not None
            and endpoint.previous_expires_at > now):
        found.append(endpoint.previous_secret)
    return found


def signed_headers(event_id: str, body: str, signers: list[str], at: datetime) -> dict[str, str]:
    """The headers of one try: the event id, the time and one signature per secret."""
    signatures = " ".join(Webhook(secret).sign(event_id, at, body) for secret in signers)
    return {"webhook-id": event_id, "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": signatures}
