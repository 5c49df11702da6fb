"""What the gateway's webhooks tell about a merchant beyond its status, kept once a status read
vouches for it (docs/gateway-contract.md, "Webhook facts to keep"; a webhook is a hint):

- MERCHANT_STATUS_ACCEPTED's ``merchant_id``, the merchant's MID at the gateway: stored only
  while a status read has the merchant APPROVED (the read made for the event, or a later read
  that approves it: :func:`confirm_mid` runs after every status read), set once;
- MERCHANT_PENDENCY_STATUS_UPDATED's ``pendency_info_*``: one row per event, stored once the
  event's status read succeeded (:func:`keep`); the newest event about a category and
  sub-category says where that pendency stands (:func:`current_pendencies`).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm.attributes import set_committed_value

from portal.audit.service import Actor, record
from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.pendency import MerchantPendency
from portal.core.models.webhook_event import WebhookEvent
from portal.gateway.onboarding_events import (
    MERCHANT_ID_KEY,
    PendencyKey,
    WebhookEventName,
    WebhookKey,
)
from portal.gateway.onboarding_shapes import OnboardingStatus
from portal.gateway.payments_reading import issued_at_ms

#: A MID the payment credentials accept (``portal.payments.credentials.MID_PATTERN``).
_MID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MID_ACTION = "merchant.gateway_mid"
PENDENCY_ACTION = "merchant.pendency"
_INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}


def payload_of(event: WebhookEvent) -> dict[str, Any]:
    """The event's JSON object as received ({} when it is not one)."""
    try:
        payload = json.loads(event.body)
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


def keep(merchant: Merchant, event: WebhookEvent, actor: Actor) -> str:
    """Keep what ``event`` tells about ``merchant`` beyond its status, once its status read
    succeeded (or was not needed); what was kept, in words for the event's outcome ('' when
    nothing); no commit."""
    if event.event_name == WebhookEventName.PENDENCY_UPDATED:
        return "; pendency kept" if keep_pendency(merchant, event, actor) else ""
    if event.event_name == WebhookEventName.STATUS_ACCEPTED:
        if confirm_mid(merchant, actor):
            return "; merchant id kept"
        if merchant.gateway_mid is None:
            return "; merchant id kept back until a status read says APPROVED"
    return ""


def confirm_mid(merchant: Merchant, actor: Actor) -> bool:
    """Store the MID a MERCHANT_STATUS_ACCEPTED event named, if the merchant is APPROVED by a
    status read and has none yet (the newest such event's); audited; True if stored; no
    commit."""
    if (merchant.status != OnboardingStatus.APPROVED or merchant.gateway_mid
            or not merchant.onboarding_id):
        return False
    events = db.session.scalars(
        select(WebhookEvent).where(WebhookEvent.onboarding_id == merchant.onboarding_id,
                                   WebhookEvent.event_name == WebhookEventName.STATUS_ACCEPTED)
        .order_by(WebhookEvent.received_at.desc(), WebhookEvent.id.desc()))
    mid = next((found for found in map(_mid_of, events) if found), None)
    if mid is None:
        return False
    taken = db.session.execute(
        update(Merchant).where(Merchant.id == merchant.id, Merchant.gateway_mid.is_(None))
        .values(gateway_mid=mid), execution_options={"synchronize_session": False})
    if taken.rowcount != 1:  # stored meanwhile by another reader
        return False
    set_committed_value(merchant, "gateway_mid", mid)
    record(MID_ACTION, actor=actor, merchant_id=merchant.id, detail={"mid": mid})
    return True


def _mid_of(event: WebhookEvent) -> str | None:
    value = payload_of(event).get(MERCHANT_ID_KEY)
    return value.strip() if isinstance(value, str) and _MID.fullmatch(value.strip()) else None


def keep_pendency(merchant: Merchant, event: WebhookEvent, actor: Actor) -> bool:
    """Store the pendency ``event`` reported, once per event (a second delivery, or a sync
    and a webhook at once, store nothing more), with a notice for the merchant's owner;
    audited; True if stored; no commit."""
    payload = payload_of(event)
    text = {key: _text(payload.get(key)) for key in PendencyKey}
    values = {
        "merchant_id": merchant.id, "webhook_event_id": event.id,
        "category": text[PendencyKey.CATEGORY][:64],
        "sub_category": text[PendencyKey.SUB_CATEGORY][:500],
        "reason": text[PendencyKey.REASON][:1000], "status": text[PendencyKey.STATUS][:32],
        "raised_at": _time(payload.get(PendencyKey.CREATION_TIME)),
        "reported_at": _time(payload.get(WebhookKey.EVENT_TIMESTAMP)),
        "cards_approval_blocking": _flag(payload.get(PendencyKey.CARDS_APPROVAL_BLOCKING)),
        "mca_approval_blocking": _flag(payload.get(PendencyKey.MCA_APPROVAL_BLOCKING)),
        "received_at": clock.utcnow(),
    }
    insert = _INSERTS[db.session.get_bind().dialect.name]
    stored = db.session.execute(
        insert(MerchantPendency).values(values)
        .on_conflict_do_nothing(index_elements=[MerchantPendency.webhook_event_id]),
        execution_options={"synchronize_session": False})
    if stored.rowcount != 1:
        return False
    record(PENDENCY_ACTION, actor=actor, merchant_id=merchant.id,
           detail={"category": values["category"], "status": values["status"]})
    db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.PENDENCY,
                                           webhook_event_id=event.id))
    return True


def current_pendencies(merchant: Merchant) -> list[MerchantPendency]:
    """Where each pendency the gateway reported stands: the newest event's row per category
    and sub-category, oldest raised first."""
    rows = db.session.scalars(select(MerchantPendency)
                              .where(MerchantPendency.merchant_id == merchant.id)
                              .order_by(MerchantPendency.id))
    newest: dict[tuple[str, str], MerchantPendency] = {}
    for row in rows:
        key = (row.category, row.sub_category)
        if key not in newest or _when(row) >= _when(newest[key]):
            newest[key] = row
    return sorted(newest.values(), key=lambda row: (_when(row, raised=True), row.id))


def _when(row: MerchantPendency, raised: bool = False) -> datetime:
    """When the row was reported (or raised), for ordering; rows without a time first."""
    at = row.raised_at if raised else row.reported_at
    return at or datetime.min.replace(tzinfo=UTC)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _flag(value: Any) -> bool | None:
    """A webhook's "true" / "false" (or a JSON boolean); None when it said neither."""
    if isinstance(value, bool):
        return value
    word = _text(value).lower()
    return {"true": True, "false": False}.get(word)


def _time(value: Any) -> datetime | None:
    """An epoch time of the gateway's (milliseconds, or seconds), None when unreadable."""
    try:
        return datetime.fromtimestamp(issued_at_ms(value) / 1000, UTC)
    except (ValueError, OverflowError, OSError):
        return None
