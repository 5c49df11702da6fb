"""The webhooks out in tests: a partner's receiver on a loopback port (a tiny HTTP server in a
thread; the Standard Webhooks library verifies what it got, and it dedupes by webhook-id, as a
partner's should), an endpoint added as an admin adds one, a status move that writes an event,
the events and deliveries read back, and the worker's delivery run in this process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from flask import Flask
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.partner_webhook import PartnerDelivery, PartnerEvent
from portal.core.models.status_change import StatusSource
from portal.core.row_claims import LEASE
from portal.domain.audit.service import Actor
from portal.domain.onboarding.status_history import change_status
from portal.domain.partner_events.catalogue import EventType
from portal.domain.partner_events.delivery import deliver_due
from portal.domain.partner_events.endpoints import add_endpoint

#: Who adds the tests' endpoints.
ADMIN = Actor("admin@example.com")


@dataclass(frozen=True)
class Received:
    """One request as the receiver got it."""

    headers: dict[str, str]
    body: str


@dataclass
class Receiver:
    """What a partner's endpoint got; ``answers``: the statuses it gives in turn (then 200);
    ``hold``: when set, the receiver holds every request until ``release`` is set."""

    url: str = ""
    received: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    hold: bool = False
    reached: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def verified(self, secret: str) -> list[dict]:
        """The payloads whose signature ``secret`` verifies (raises on one it does not)."""
        return [Webhook(secret).verify(r.body, r.headers) for r in self.received]

    def unique_ids(self) -> list[str]:
        """The webhook-ids received, each once, in order: what a deduping receiver keeps."""
        return list(dict.fromkeys(r.headers["webhook-id"] for r in self.received))


def verifies(secret: str, request: Received) -> bool:
    """Whether ``secret`` verifies the request's signature."""
    try:
        Webhook(secret).verify(request.body, request.headers)
    except WebhookVerificationError:
        return False
    return True


@contextmanager
def receiving(receiver: Receiver | None = None) -> Iterator[Receiver]:
    """A receiver served on a loopback port for the block."""
    got = receiver or Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
            if got.hold:
                got.reached.set()
                got.release.wait(60)
            got.received.append(Received({k.lower(): v for k, v in self.headers.items()},
                                         body))
            status = got.answers.pop(0) if got.answers else 200
            try:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:  # the sender is gone (a worker killed mid-send)
                self.close_connection = True

        def log_message(self, *_args: object) -> None:
            """Quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01},
                              daemon=True)
    thread.start()
    got.url = f"http://127.0.0.1:{server.server_port}/hooks"
    try:
        yield got
    finally:
        got.release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def endpoint_for(app: Flask, url: str, types: list[str] | None = None) -> tuple[int, str]:
    """An active endpoint at ``url`` wanting ``types`` (default: every type), as an admin adds
    it; its id and secret."""
    with app.app_context():
        issued = add_endpoint(url, "Stayhub", types or [t.value for t in EventType], None,
                              ADMIN, allow_loopback=True)
        db.session.commit()
        return issued.endpoint.id, issued.secret


def stored_events(app: Flask) -> list[PartnerEvent]:
    """Every event, oldest first, detached."""
    with app.app_context():
        rows = list(db.session.scalars(select(PartnerEvent).order_by(PartnerEvent.id)))
        db.session.expunge_all()
        return rows


def stored_deliveries(app: Flask) -> list[PartnerDelivery]:
    """Every delivery, oldest first, detached (with its event)."""
    with app.app_context():
        rows = list(db.session.scalars(select(PartnerDelivery).order_by(PartnerDelivery.id)))
        db.session.expunge_all()
        return rows


def move(app: Flask, merchant_id: int, to: str, *, commit: bool = True) -> None:
    """Move the merchant's status as a status read does; rolled back when not ``commit``."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        assert change_status(merchant, to, StatusSource.POLL, actor=ADMIN)
        if commit:
            db.session.commit()
        else:
            db.session.rollback()


def send_due(app: Flask) -> None:
    """One run of the worker's delivery, in this process."""
    with app.app_context():
        deliver_due(True, LEASE, threading.Event())
