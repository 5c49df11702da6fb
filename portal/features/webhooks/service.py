"""Receiving onboarding webhooks (docs/gateway-facts.md A8).

A webhook is a hint: it is checked (``portal.features.webhooks.trust``: its digest, its source
address), stored raw with how it was verified, deduplicated, and then the status is re-read with the
authenticated status call before anything changes; what the event adds beyond the status (the
ids, a pendency, a product's acceptance) is kept only from a verified event, after that read
(``portal.domain.onboarding.merchant_facts``). The answer must come within 10 seconds, so the
re-read uses short timeouts and no retries; when it fails the event stays unprocessed for the sync
to pick up.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.core import clock
from portal.core.clients import onboarding_client
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.core.models.webhook_event import Verification, WebhookEvent
from portal.core.typed_text import without_control_characters
from portal.domain.audit.service import WEBHOOK
from portal.domain.onboarding.event_facts import keep
from portal.domain.onboarding.status_history import is_final
from portal.domain.onboarding.status_reads import read_status
from portal.features.webhooks.trust import judge
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.events import WebhookKey
from portal.gateway.onboarding.vocabulary import known_status
from portal.gateway.retry import NO_RETRY
from portal.gateway.transport import Timeouts

#: Connect and read timeouts of the re-read: well inside the gateway's 10 seconds.
TIMEOUTS = Timeouts(connect=2.0, read=4.0)
MAX_BODY_BYTES = 64 * 1024
_MAX_KEY = 160


@dataclass(frozen=True)
class Receipt:
    """The HTTP answer to a delivery and what became of it."""

    status: int
    outcome: str


def webhook_client(settings: Settings) -> OnboardingClient:
    """An onboarding client that answers or gives up within a few seconds."""
    return onboarding_client(settings, timeouts=TIMEOUTS, retry=NO_RETRY)


def receive(raw: bytes, digest: str | None, settings: Settings, client: OnboardingClient,
            address: str | None = None) -> Receipt:
    """Check, store once, and re-read the status of one delivery from ``address`` (the client
    address behind the trusted proxies); commits."""
    if len(raw) > MAX_BODY_BYTES:
        return Receipt(413, "too large")
    judged = judge(settings, raw, digest, address)
    if judged.refused is not None:
        return Receipt(judged.refused, judged.outcome)
    try:
        payload = json.loads(raw)
    except ValueError:
        return Receipt(400, "not JSON")
    except RecursionError:  # thousands of nested brackets: no event is shaped like that
        return Receipt(400, "JSON nested too deeply")
    if not isinstance(payload, dict):
        return Receipt(400, "not a JSON object")
    event = store(raw, payload, judged.verification)
    if event is None:
        return Receipt(200, "duplicate")
    process(client, event)
    return Receipt(200, event.outcome)


def dedup_key(raw: bytes, payload: dict[str, object]) -> str:
    """The event's ``event_id``, or the SHA-256 of the raw body when it has none."""
    event_id = payload.get(WebhookKey.EVENT_ID)
    if (isinstance(event_id, str) and event_id and len(event_id) <= _MAX_KEY - 3
            and without_control_characters(event_id) == event_id):
        return f"id:{event_id}"
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def store(raw: bytes, payload: dict[str, object],
          verification: Verification = Verification.NONE) -> WebhookEvent | None:
    """Store a new event with how it was verified, or return None when it was received
    before; commits."""
    key = dedup_key(raw, payload)
    if db.session.scalar(select(WebhookEvent.id).where(WebhookEvent.dedup_key == key)):
        return None
    event = WebhookEvent(dedup_key=key, event_name=_text(payload, WebhookKey.EVENT_NAME, 80),
                         onboarding_id=_text(payload, WebhookKey.ONBOARDING_ID, 64),
                         body=raw.decode("utf-8", "replace"), received_at=clock.utcnow(),
                         verified_by=verification)
    db.session.add(event)
    try:
        db.session.commit()
    except IntegrityError:  # the same event arrived twice at once
        db.session.rollback()
        return None
    return event


def _text(payload: dict[str, object], key: str, longest: int) -> str:
    """A value of the event as a column holds it: text, no control character (PostgreSQL
    cannot store a NUL, which JSON may carry as ``\u0000``), at most ``longest`` long."""
    return without_control_characters(str(payload.get(key) or ""))[:longest]


def process(client: OnboardingClient, event: WebhookEvent,
            already_read: frozenset[str] = frozenset()) -> None:
    """Re-read the status the event is about; a failed read leaves it unprocessed; commits.
    What it changes is credited to the webhook (``WEBHOOK``), whoever runs it.

    ``already_read``: onboarding ids whose status was read moments ago (by the sync).
    """
    merchant = db.session.scalar(
        select(Merchant).where(Merchant.onboarding_id == event.onboarding_id)
    ) if event.onboarding_id else None
    if merchant is None:
        _done(event, "unknown onboarding id")
    elif is_final(merchant.status):
        _done(event, f"already {merchant.status}" + reported_status(event)
              + keep(merchant, event, WEBHOOK))
    elif event.onboarding_id in already_read:
        _done(event, "status read by the sync" + keep(merchant, event, WEBHOOK))
    else:
        read = read_status(client, merchant, StatusSource.WEBHOOK, WEBHOOK)
        if read.ok:
            _done(event, f"status {merchant.status}" + (" (moved)" if read.moved else "")
                  + reported_status(event) + keep(merchant, event, WEBHOOK))
        else:
            event.outcome = f"re-read failed, left for the sync: {read.error}"[:200]
    db.session.commit()


def reported_status(event: WebhookEvent) -> str:
    """What the event said of the status, mapped onto the contract's names ('' if nothing).

    Only recorded: the status itself always comes from the re-read.
    """
    try:
        payload = json.loads(event.body)
    except ValueError:
        return ""
    named = str(payload.get(WebhookKey.ONBOARDING_STATUS) or "")[:40] if isinstance(payload, dict) \
        else ""
    if not named:
        return ""
    known = known_status(named)
    if known is None:
        return f"; the event said {named}, not a status the portal knows"
    return f"; the event said {named}" + (f" ({known})" if named != known else "")


def _done(event: WebhookEvent, outcome: str) -> None:
    event.processed_at = clock.utcnow()
    event.outcome = outcome[:200]


def pending_events() -> list[WebhookEvent]:
    """Events whose status re-read has not succeeded yet, oldest first."""
    return list(db.session.scalars(
        select(WebhookEvent).where(WebhookEvent.processed_at.is_(None))
        .order_by(WebhookEvent.received_at, WebhookEvent.id)))
