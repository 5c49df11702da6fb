"""Writing an event and its deliveries in the caller's transaction: the event exists if and only
if the change it reports was committed, and each active endpoint that wants its type gets one
delivery of it. No commit here.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import insert, select

from portal.core import clock
from portal.core.db import db, upsert_insert
from portal.core.models.partner_webhook import (
    DeliveryState,
    PartnerDelivery,
    PartnerEndpoint,
    PartnerEvent,
)
from portal.domain.partner_events.catalogue import EventType

#: The prefix of the event ids partners see.
ID_PREFIX = "evt_"


def new_event_id() -> str:
    """A fresh event id: ``evt_`` and 24 random url-safe characters."""
    return ID_PREFIX + secrets.token_urlsafe(18)


def add_event(type_: EventType, data: dict[str, Any], once_key: str | None = None) -> str | None:
    """Write an event of ``type_`` about ``data`` and its deliveries; no commit.

    With ``once_key`` an event already written under that key is not written again (None is
    returned). Returns the new event's id.
    """
    now = clock.utcnow()
    event_id = new_event_id()
    payload = {"type": type_.value, "timestamp": now.isoformat().replace("+00:00", "Z"),
               "data": data}
    values = {"event_id": event_id, "type": type_.value, "payload": payload,
              "once_key": once_key, "created_at": now}
    with db.session.no_autoflush:  # the change reported is written with its own flush
        if once_key is None:
            row = db.session.execute(insert(PartnerEvent).values(values)
                                     .returning(PartnerEvent.id)).scalar_one()
        else:
            row = db.session.execute(
                upsert_insert()(PartnerEvent).values(values)
                .on_conflict_do_nothing(index_elements=[PartnerEvent.once_key])
                .returning(PartnerEvent.id)).scalar()
            if row is None:
                return None
        for endpoint_id in subscribed(type_.value):
            add_delivery(row, endpoint_id)
        return event_id


def subscribed(type_name: str) -> list[int]:
    """The active endpoints that want events of ``type_name``."""
    return [endpoint_id for endpoint_id, types in db.session.execute(
        select(PartnerEndpoint.id, PartnerEndpoint.event_types)
        .where(PartnerEndpoint.active.is_(True)).order_by(PartnerEndpoint.id))
        if type_name in (types or [])]


def add_delivery(event_row_id: int, endpoint_id: int) -> None:
    """One delivery of an event to an endpoint, due now; no commit."""
    now = clock.utcnow()
    db.session.execute(insert(PartnerDelivery).values(
        event_id=event_row_id, endpoint_id=endpoint_id, state=DeliveryState.PENDING,
        attempts=0, next_attempt_at=now, last_error="", created_at=now))
