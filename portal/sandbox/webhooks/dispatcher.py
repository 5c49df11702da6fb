"""Webhook delivery: an outbox of signed deliveries, sent and retried by ``tick()``.

Partners register where their events go (``POST /gcc/v2/partner/{mid}/webhook``, listed and
deleted beside it); each event is delivered to every URL its partner registered, or, when the
partner registered none, to the config file's ``webhookUrl``. A reset forgets registrations.

Raising an event only queues it, so no request thread ever waits on a receiver. ``tick()`` (the
served sandbox's ticker thread, or a test after moving the clock) sends what is due. A delivery
succeeds on a 2xx answer within ``DELIVERY_TIMEOUT_SECONDS``; anything else (another status, a
timeout, a refused connection) is retried after each of ``webhookRetrySeconds`` in turn (1, 5
and 30 minutes on the real gateway), measured on the sandbox clock, and then dropped.

The body is the compact JSON of the payload; ``x-gl-digest`` is the onboarding HMAC over those
exact bytes with the partner's secret (a sandbox addition: the gateway documents no signature).
Every copy and retry of an event carries the same bytes.

Test faults (config keys ``webhookDuplicate`` / ``webhookReverseOrder``, or :meth:`set_faults`):
each event queued twice; the deliveries due in one tick sent newest first.
"""

from __future__ import annotations

import itertools
import json
import logging
import secrets
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import requests
from pydantic import TypeAdapter

from portal.core.clock import Clock
from portal.gateway.onboarding.hmac import DIGEST_HEADER, hmac_digest
from portal.gateway.onboarding.webhooks import Webhook
from portal.gateway.shapes import FieldError
from portal.sandbox.common import snapshots
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.errors import not_found, validation_error

log = logging.getLogger("portal.sandbox.webhooks")

#: How long a receiver has to answer.
DELIVERY_TIMEOUT_SECONDS = 10.0
#: How many webhooks one partner may register.
MAX_WEBHOOKS = 10

#: send(url, body, headers) -> the answer's HTTP status; a RequestException when none came.
Sender = Callable[[str, bytes, dict[str, str]], int]


def post_webhook(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST one delivery and return the answer's status code (redirects are not followed)."""
    with requests.post(url, data=body, headers=headers, timeout=DELIVERY_TIMEOUT_SECONDS,
                       allow_redirects=False) as response:
        return response.status_code


@dataclass
class Delivery:
    """One queued copy of one event: the exact bytes, the target and the next attempt."""

    event_id: str
    event: str
    onboarding_id: str
    url: str
    body: bytes
    digest: str | None
    due_at: datetime
    seq: int
    attempt: int = 1

    def headers(self) -> dict[str, str]:
        """The headers sent with the body."""
        headers = {"Content-Type": "application/json"}
        if self.digest is not None:
            headers[DIGEST_HEADER] = self.digest
        return headers


_QUEUE = TypeAdapter(list[Delivery])


@dataclass(frozen=True)
class DeliveryAttempt:
    """One logged attempt: ``outcome`` is ``delivered``, ``retry`` or ``dropped``."""

    event_id: str
    event: str
    onboarding_id: str
    attempt: int
    status_code: int | None
    outcome: str
    at: datetime
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The attempt as JSON for ``GET /_sandbox/webhooks``."""
        return {"eventId": self.event_id, "event": self.event, "onboardingId": self.onboarding_id,
                "attempt": self.attempt, "statusCode": self.status_code,
                "outcome": self.outcome, "at": self.at.isoformat(), "error": self.error}


@dataclass(frozen=True)
class WebhookFaults:
    """Test switches: queue each event twice; send a tick's due deliveries in reverse order."""

    duplicate: bool = False
    reverse_order: bool = False


class WebhookDispatcher:
    """Resettable, thread-safe outbox of webhook deliveries, with its delivery log."""

    def __init__(self, config: SandboxConfig, clock: Clock, send: Sender = post_webhook,
                 log_size: int = 500) -> None:
        self._config = config
        self._clock = clock
        self._send = send
        self._lock = threading.Lock()
        self._queue: list[Delivery] = []
        self._log: deque[DeliveryAttempt] = deque(maxlen=log_size)
        self._seq = itertools.count()
        self._faults = WebhookFaults()
        #: partner id -> its registered webhooks, oldest first.
        self._registered: dict[str, list[Webhook]] = {}
        #: Delivery attempts made since start: a cheap mark that a tick sent something.
        self._attempted = 0
        self.reset()

    def reset(self) -> None:
        """Drop every registration, queued delivery and the log; faults return to the config's."""
        with self._lock:
            self._registered.clear()
            self._queue.clear()
            self._log.clear()
            self._faults = WebhookFaults(duplicate=self._config.webhookDuplicate,
                                         reverse_order=self._config.webhookReverseOrder)

    def snapshot(self) -> dict[str, Any]:
        """What a restart must keep, as JSON: registrations and deliveries still queued."""
        with self._lock:
            return {"registered": {partner: [hook.model_dump() for hook in hooks]
                                   for partner, hooks in self._registered.items()},
                    "queue": snapshots.dump(_QUEUE, self._queue)}

    def restore(self, data: dict[str, Any]) -> None:
        """Take back what :meth:`snapshot` kept."""
        queue = snapshots.load(_QUEUE, data.get("queue", []))
        with self._lock:
            self._registered = {partner: [Webhook.model_validate(hook) for hook in hooks]
                                for partner, hooks in data.get("registered", {}).items()}
            self._queue = queue
            self._seq = itertools.count(max((d.seq for d in queue), default=-1) + 1)

    def set_faults(self, faults: WebhookFaults) -> None:
        """Switch the test faults until the next reset."""
        with self._lock:
            self._faults = faults

    def faults(self) -> WebhookFaults:
        """The test faults in force."""
        with self._lock:
            return self._faults

    def register(self, partner_id: str, url: str) -> Webhook:
        """Register ``url`` for the partner's events; registering a URL again returns it."""
        with self._lock:
            mine = self._registered.setdefault(partner_id, [])
            known = next((hook for hook in mine if hook.webhookUrl == url), None)
            if known is not None:
                return known
            if len(mine) >= MAX_WEBHOOKS:
                raise validation_error([FieldError(
                    "webhookUrl", f"At most {MAX_WEBHOOKS} webhooks; delete one first")])
            hook = Webhook(webhookId="wh_" + secrets.token_hex(8), webhookUrl=url)
            mine.append(hook)
            return hook

    def registered(self, partner_id: str) -> list[Webhook]:
        """The partner's webhooks, oldest first."""
        with self._lock:
            return list(self._registered.get(partner_id, ()))

    def unregister(self, partner_id: str, webhook_id: str) -> Webhook:
        """Delete one of the partner's webhooks; 404 if it has none by that id."""
        with self._lock:
            mine = self._registered.get(partner_id, [])
            hook = next((h for h in mine if h.webhookId == webhook_id), None)
            if hook is None:
                raise not_found("No webhook with this id")
            mine.remove(hook)
            return hook

    def _targets(self, partner_id: str) -> list[str]:
        registered = [hook.webhookUrl for hook in self._registered.get(partner_id, ())]
        fallback = [self._config.webhookUrl] if self._config.webhookUrl else []
        return registered or fallback

    def emit(self, payload: dict[str, str], secret: str | None, partner_id: str,
             delay: timedelta = timedelta(0)) -> None:
        """Queue ``payload`` for each of the partner's webhooks, signed with ``secret``, due
        ``delay`` from now on the sandbox clock."""
        body = json.dumps(payload, separators=(",", ":")).encode("utf-8")
        digest = hmac_digest(secret, body) if secret is not None else None
        with self._lock:
            copies = 2 if self._faults.duplicate else 1
            for url in self._targets(partner_id):
                for _ in range(copies):
                    self._queue.append(Delivery(
                        event_id=payload["event_id"], event=payload["status"],
                        onboarding_id=payload["onboarding_id"], url=url, body=body,
                        digest=digest, due_at=self._clock.now() + delay,
                        seq=next(self._seq)))

    def tick(self) -> None:
        """Send every delivery that is due (outside the lock, one after another)."""
        for delivery in self._take_due():
            self._attempt(delivery)

    def deliveries(self) -> list[DeliveryAttempt]:
        """The logged attempts, oldest first."""
        with self._lock:
            return list(self._log)

    def pending(self) -> int:
        """How many deliveries wait for their next attempt."""
        with self._lock:
            return len(self._queue)

    def attempted(self) -> int:
        """How many delivery attempts were made since the sandbox started."""
        with self._lock:
            return self._attempted

    def _take_due(self) -> list[Delivery]:
        with self._lock:
            now = self._clock.now()
            due = sorted((d for d in self._queue if d.due_at <= now),
                         key=lambda d: (d.due_at, d.seq))
            self._queue = [d for d in self._queue if d.due_at > now]
            if self._faults.reverse_order:
                due.reverse()
            return due

    def _attempt(self, delivery: Delivery) -> None:
        attempt = delivery.attempt
        status: int | None = None
        error: str | None = None
        try:
            status = self._send(delivery.url, delivery.body, delivery.headers())
        except requests.RequestException as exc:
            error = type(exc).__name__
        retries = self._config.webhookRetrySeconds
        with self._lock:
            self._attempted += 1
            now = self._clock.now()
            if status is not None and 200 <= status < 300:
                outcome = "delivered"
            elif attempt <= len(retries):
                outcome = "retry"
                delivery.attempt += 1
                delivery.due_at = now + timedelta(seconds=retries[attempt - 1])
                self._queue.append(delivery)
            else:
                outcome = "dropped"
            self._log.append(DeliveryAttempt(delivery.event_id, delivery.event,
                                             delivery.onboarding_id, attempt, status, outcome,
                                             now, error))
        log.info("webhook %s attempt %d for %s: %s (%s)", delivery.event, attempt,
                 delivery.onboarding_id, outcome, error or status)
