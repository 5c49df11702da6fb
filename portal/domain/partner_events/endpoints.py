"""The partners' endpoints as admins manage them: add one (its URL checked, its secret shown
once), rotate its secret (the old one still signs for a day), disable it, and send an event
again. Functions take plain arguments and leave the commit to the caller."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.partner_webhook import PartnerDelivery, PartnerEndpoint
from portal.core.public_address import Refused, checked_addresses
from portal.domain.audit.service import Actor, record
from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.recording import add_delivery
from portal.domain.partner_events.sending import WHAT
from portal.domain.partner_events.signing import new_secret

URL_MAX = 500
DESCRIPTION_MAX = 200
#: How long the previous secret still signs after a rotation.
ROTATION_OVERLAP = timedelta(hours=24)
#: The most deliveries an endpoint's log shows, newest first.
LOG_LENGTH = 100


class EndpointRefused(Exception):
    """The endpoint cannot be added as asked; ``field`` names the form field it belongs to."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class IssuedSecret:
    """An endpoint and its new secret, which is shown once."""

    endpoint: PartnerEndpoint
    secret: str


def checked_url(url: str, allow_loopback: bool) -> str:
    """``url`` as stored, once it is https (http too where loopback is allowed, for tests and
    development) and its name resolves to public addresses only; EndpointRefused otherwise."""
    url = url.strip()
    parts = urlsplit(url)
    schemes = ("https", "http") if allow_loopback else ("https",)
    if len(url) > URL_MAX:
        raise EndpointRefused(f"Keep the address under {URL_MAX} characters.", "url")
    if parts.scheme not in schemes or not parts.hostname:
        raise EndpointRefused("The address must start with https://, for example "
                              "https://hooks.example.com/portal.", "url")
    try:
        checked_addresses(parts.hostname, parts.port or 443, allow_loopback, WHAT)
    except Refused as exc:
        raise EndpointRefused(str(exc), "url") from None
    return url


def add_endpoint(url: str, description: str, event_types: list[str], user_id: int | None,
                 actor: Actor, allow_loopback: bool) -> IssuedSecret:
    """Add an active endpoint with a new secret; audited. EndpointRefused for a URL refused or
    no event chosen."""
    url = checked_url(url, allow_loopback)
    chosen = [t.value for t in EventType if t.value in event_types]
    if not chosen:
        raise EndpointRefused("Choose at least one event to send there.", "event_types")
    secret = new_secret()
    endpoint = PartnerEndpoint(url=url, description=description.strip()[:DESCRIPTION_MAX],
                               event_types=chosen, active=True, secret=secret,
                               created_by_id=user_id, created_at=clock.utcnow())
    db.session.add(endpoint)
    db.session.flush()
    record("partner_webhook.add", actor=actor, detail={"endpoint": endpoint.id, "url": url,
                                                       "events": chosen})
    return IssuedSecret(endpoint, secret)


def rotate_secret(endpoint: PartnerEndpoint, actor: Actor) -> IssuedSecret:
    """Give ``endpoint`` a new secret; the current one still signs for ROTATION_OVERLAP;
    audited."""
    secret = new_secret()
    endpoint.previous_secret = endpoint.secret
    endpoint.previous_expires_at = clock.utcnow() + ROTATION_OVERLAP
    endpoint.secret = secret
    record("partner_webhook.rotate", actor=actor, detail={"endpoint": endpoint.id,
                                                          "url": endpoint.url})
    return IssuedSecret(endpoint, secret)


def disable(endpoint: PartnerEndpoint, actor: Actor) -> bool:
    """Stop sending to ``endpoint`` (what is queued for it fails); audited; False when it was
    disabled already."""
    if not endpoint.active:
        return False
    endpoint.active = False
    endpoint.disabled_at = clock.utcnow()
    record("partner_webhook.disable", actor=actor, detail={"endpoint": endpoint.id,
                                                           "url": endpoint.url})
    return True


def send_again(delivery: PartnerDelivery, actor: Actor) -> None:
    """A new delivery of the same event (the same webhook-id) to the same endpoint, due now;
    audited."""
    add_delivery(delivery.event_id, delivery.endpoint_id)
    record("partner_webhook.replay", actor=actor,
           detail={"endpoint": delivery.endpoint_id, "event": delivery.event.event_id,
                   "type": delivery.event.type})


def every_endpoint() -> list[PartnerEndpoint]:
    """Every endpoint, newest first."""
    return list(db.session.scalars(select(PartnerEndpoint).order_by(PartnerEndpoint.id.desc())))


def delivery_log(endpoint: PartnerEndpoint) -> list[PartnerDelivery]:
    """The endpoint's latest deliveries, newest first."""
    return list(db.session.scalars(
        select(PartnerDelivery).where(PartnerDelivery.endpoint_id == endpoint.id)
        .order_by(PartnerDelivery.id.desc()).limit(LOG_LENGTH)))
