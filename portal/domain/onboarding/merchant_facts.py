"""What the gateway's webhooks tell about a merchant beyond its status, kept only from a
verified event (its digest or source address checked, ``portal.features.webhooks.trust``) and once
its status read succeeded or was not needed (docs/gateway-contract.md, "Webhook facts to keep"):

- the merchant's ids, ``merchant_id`` (offered as the MID) and VIRTUAL_ACCOUNT_PROVISIONED's
  ``ucic_id``, kept apart: stored only while a status read has the merchant APPROVED (the read
  made for the event, or a later read that approves it: :func:`confirm_ids` runs after every
  status read), each set once;
- MERCHANT_PENDENCY_STATUS_UPDATED's ``pendency_info_*``: one row per event
  (:func:`keep_pendency`); the newest event about a category and sub-category says where that
  pendency stands (:func:`current_pendencies`);
- a product's acceptance: ``portal.domain.onboarding.product_approvals``.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm.attributes import set_committed_value

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.pendency import MerchantPendency
from portal.core.models.webhook_event import Verification, WebhookEvent
from portal.domain.audit.service import Actor, record
from portal.domain.partner_events import merchant_events
from portal.gateway.onboarding.events import (
    MERCHANT_ID_KEY,
    UCIC_ID_KEY,
    PendencyKey,
    WebhookEventName,
    WebhookKey,
)
from portal.gateway.onboarding.product_events import NAMING_THE_MERCHANT
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.gateway.payments.reading import issued_at_ms

#: A MID the payment credentials accept (``portal.domain.payments.credentials.MID_PATTERN``).
_MID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MID_ACTION = "merchant.gateway_mid"
UCIC_ACTION = "merchant.gateway_ucic_id"
PENDENCY_ACTION = "merchant.pendency"
#: A pendency the gateway still waits for (``pendency_info_status``).
OPEN = "OPEN"
_INSERTS = {"postgresql": postgresql.insert, "sqlite": sqlite.insert}
#: Each id a verified event may name: the merchant's column, the payload key, the events that
#: carry it, the audit action.
_IDS = (("gateway_mid", MERCHANT_ID_KEY, NAMING_THE_MERCHANT, MID_ACTION),
        ("gateway_ucic_id", UCIC_ID_KEY,
         frozenset({WebhookEventName.VIRTUAL_ACCOUNT_PROVISIONED.value}), UCIC_ACTION))


def insert_for_dialect() -> Any:
    """The database's INSERT that can skip a row already there (``on_conflict_do_nothing``)."""
    return _INSERTS[db.session.get_bind().dialect.name]


def payload_of(event: WebhookEvent) -> dict[str, Any]:
    """The event's JSON object as received ({} when it is not one)."""
    try:
        payload = json.loads(event.body)
    except ValueError:
        return {}
    return payload if isinstance(payload, dict) else {}


def confirm_ids(merchant: Merchant, actor: Actor) -> list[str]:
    """Store the ids verified events named (``merchant_id``, ``ucic_id``: the newest event's of
    each) that the merchant has none of yet, if a status read has it APPROVED; audited; the
    columns stored; no commit."""
    if merchant.status != OnboardingStatus.APPROVED or not merchant.onboarding_id:
        return []
    stored = []
    for column, key, names, action in _IDS:
        if getattr(merchant, column):
            continue
        events = db.session.scalars(
            select(WebhookEvent).where(WebhookEvent.onboarding_id == merchant.onboarding_id,
                                       WebhookEvent.event_name.in_(names),
                                       WebhookEvent.verified_by != Verification.NONE)
            .order_by(WebhookEvent.received_at.desc(), WebhookEvent.id.desc()))
        found = next((value for value in (_id_of(event, key) for event in events) if value),
                     None)
        if found is None:
            continue
        taken = db.session.execute(
            update(Merchant).where(Merchant.id == merchant.id, getattr(Merchant, column).is_(None))
            .values({column: found}), execution_options={"synchronize_session": False})
        if taken.rowcount != 1:  # stored meanwhile by another reader
            continue
        set_committed_value(merchant, column, found)
        record(action, actor=actor, merchant_id=merchant.id, detail={key: found})
        stored.append(column)
    return stored


def _id_of(event: WebhookEvent, key: str) -> str | None:
    value = payload_of(event).get(key)
    return value.strip() if isinstance(value, str) and _MID.fullmatch(value.strip()) else None


def keep_pendency(merchant: Merchant, event: WebhookEvent, actor: Actor) -> bool:
    """Store the pendency ``event`` reported, once per event (a second delivery, or a sync
    and a webhook at once, store nothing more), with a merchant.needs_action event for
    partners' software; audited; True if stored (the caller tells the owner:
    ``pendency_notices``); no commit."""
    payload = payload_of(event)
    text = {key: _text(payload.get(key)) for key in PendencyKey}
    values = {
        "merchant_id": merchant.id, "webhook_event_id": event.id,
        "category": text[PendencyKey.CATEGORY][:64],
        "sub_category": text[PendencyKey.SUB_CATEGORY][:500],
        "reason": text[PendencyKey.REASON][:1000], "status": text[PendencyKey.STATUS][:32],
        "raised_at": event_time(payload.get(PendencyKey.CREATION_TIME)),
        "reported_at": event_time(payload.get(WebhookKey.EVENT_TIMESTAMP)),
        "cards_approval_blocking": _flag(payload.get(PendencyKey.CARDS_APPROVAL_BLOCKING)),
        "mca_approval_blocking": _flag(payload.get(PendencyKey.MCA_APPROVAL_BLOCKING)),
        "received_at": clock.utcnow(),
    }
    insert = insert_for_dialect()
    stored = db.session.execute(
        insert(MerchantPendency).values(values)
        .on_conflict_do_nothing(index_elements=[MerchantPendency.webhook_event_id])
        .returning(MerchantPendency.id),
        execution_options={"synchronize_session": False}).scalar()
    if stored is None:  # kept before (a rowcount would not say so on PostgreSQL)
        return False
    record(PENDENCY_ACTION, actor=actor, merchant_id=merchant.id,
           detail={"category": values["category"], "status": values["status"]})
    merchant_events.needs_action(merchant, values["category"], values["status"])
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


def event_time(value: Any) -> datetime | None:
    """An epoch time of the gateway's (milliseconds, or seconds), None when unreadable."""
    try:
        return datetime.fromtimestamp(issued_at_ms(value) / 1000, UTC)
    except (ValueError, OverflowError, OSError):
        return None
