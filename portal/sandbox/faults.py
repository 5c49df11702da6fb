"""Fault injection on the gateway API routes: latency, 5xx, dropped connections, late answers.

A :class:`FaultInjector` wraps the sandbox's WSGI app. A request under an API prefix (onboarding
``/gcc/v2/partner/merchant/``, payments ``/gl/v1/payments/``) is checked against the armed faults
in order; the first that matches (``method``, ``path`` glob, ``operation`` name) and fires
(``rate``, drawn from a random seeded by the plan) is applied and counts down its ``times``.
``/_sandbox/*``, ``/openapi.json`` and the pages are never touched.

Kinds:

- ``latency``: wait ``seconds``, then handle the request normally.
- ``error``: answer ``status`` with the SYSTEM_ERROR envelope; the request is not applied. In the
  docs dialect (``answerDialect``) every 5xx is the docs' HTTP 501 GL-501-000. ``status`` 429
  answers "too many requests" in both; ``retryAfter`` adds a ``Retry-After`` header (seconds).
- ``reset``: drop the connection without an answer; the request is not applied.
- ``timeout``: apply the request, hold its answer ``seconds``, then send it (or drop, ``drop``).
- ``lost``: apply the request, then drop the connection instead of answering.

A plan, as the config file's ``"faults"`` and the body of ``POST /_sandbox/faults``::

    {"seed": 7, "faults": [{"kind": "error", "status": 503, "operation": "get_status", "times": 1},
                           {"kind": "error", "status": 429, "retryAfter": 2, "times": 1}]}
"""

from __future__ import annotations

import errno
import json
import logging
import random
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, NoReturn

from werkzeug.wrappers import Response

from portal.core.clock import Clock
from portal.gateway.onboarding import operations as onboarding_shapes
from portal.gateway.payments import operations as payments_shapes
from portal.sandbox.common.dialect import (
    SYSTEM_ERROR,
    SYSTEM_FAULT_STATUS,
    system_fault_body,
)
from portal.sandbox.common.envelopes import envelope

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

from portal.sandbox.common.fault_plans import Fault, FaultKind, FaultPlan

log = logging.getLogger("portal.sandbox")

#: Paths that faults apply to: the two gateway APIs (onboarding with the partner's webhooks).
API_PREFIXES = (onboarding_shapes.PREFIX + "/", payments_shapes.PREFIX + "/",
                onboarding_shapes.WEBHOOKS_PATH.split("{", 1)[0])
#: How many applied faults are remembered (a config file's faults may run for days).
HISTORY = 1000
#: The HTTP status of a rate limit, and the reasonCode the sandbox answers it with.
TOO_MANY_REQUESTS = 429
TOO_MANY_REQUESTS_CODE = "TOO_MANY_REQUESTS"
@dataclass(frozen=True)
class AppliedFault:
    """A fault as it hit one request."""

    kind: FaultKind
    method: str
    path: str


@dataclass
class _Armed:
    fault: Fault
    remaining: int | None


def drop_connection(environ: WSGIEnvironment) -> NoReturn:
    """Close the client's socket unanswered; werkzeug and gunicorn take the error as a drop."""
    sock = environ.get("werkzeug.socket") or environ.get("gunicorn.socket")
    if sock is not None:
        with suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
    raise ConnectionResetError(errno.ECONNRESET, "Sandbox fault: connection dropped")


class FaultInjector:
    """The armed faults of one sandbox and the record of those applied; thread-safe.

    ``speaks_docs`` says, when an error is answered, whether the sandbox answers in the docs'
    dialect (tests switch it while the sandbox runs).
    """

    def __init__(self, configured: FaultPlan, clock: Clock,
                 speaks_docs: Callable[[], bool] = lambda: False) -> None:
        self._configured = configured
        self._clock = clock
        self._speaks_docs = speaks_docs
        self._lock = threading.Lock()
        self._plan = configured
        self._armed: list[_Armed] = []
        self._rng = random.Random()  # noqa: S311  # nosec B311  # seeded test faults, not security
        self._applied: deque[AppliedFault] = deque(maxlen=HISTORY)
        self._count = 0
        #: How many resets there have been: a request held across one is dropped.
        self._resets = 0
        self.reset()

    def load(self, plan: FaultPlan) -> None:
        """Arm ``plan`` in place of any armed faults; reseed and forget what was applied."""
        with self._lock:
            self._plan = plan
            self._armed = [_Armed(fault, fault.times) for fault in plan.faults]
            self._rng = random.Random(plan.seed)  # noqa: S311  # nosec B311  # as above
            self._applied.clear()
            self._count = 0

    def set(self, *faults: Fault, seed: int = 0) -> None:
        """Arm ``faults`` (the way tests switch them on)."""
        self.load(FaultPlan(faults, seed))

    def clear(self) -> None:
        """Disarm every fault."""
        self.load(FaultPlan())

    def reset(self) -> None:
        """Back to the config file's faults. A request a latency or timeout fault holds now is
        dropped when its wait ends: the records it was sent for are forgotten with the reset."""
        with self._lock:
            self._resets += 1
        self.load(self._configured)

    def applied(self) -> list[AppliedFault]:
        """The last faults applied since the plan was loaded, oldest first."""
        with self._lock:
            return list(self._applied)

    def count(self) -> int:
        """How many faults were applied since the plan was loaded."""
        with self._lock:
            return self._count

    def describe(self) -> dict[str, Any]:
        """The armed faults (``times`` = what is left) and those applied, as JSON."""
        with self._lock:
            armed = [replace(a.fault, times=a.remaining) for a in self._armed]
            return {"seed": self._plan.seed, "faults": [asdict(fault) for fault in armed],
                    "count": self._count, "applied": [asdict(hit) for hit in self._applied]}

    def pick(self, method: str, path: str) -> Fault | None:
        """The fault that hits this request, if any, counted as applied."""
        if not path.startswith(API_PREFIXES):
            return None
        with self._lock:
            for armed in self._armed:
                fault = armed.fault
                if not fault.matches(method, path):
                    continue
                if fault.rate < 1 and self._rng.random() >= fault.rate:
                    continue
                if armed.remaining is not None:
                    armed.remaining -= 1
                    if armed.remaining == 0:
                        self._armed.remove(armed)
                self._applied.append(AppliedFault(fault.kind, method, path))
                self._count += 1
                log.info("Sandbox fault %s on %s %s", fault.kind, method, path)
                return fault
        return None

    def wrap(self, app: WSGIApplication) -> WSGIApplication:
        """``app`` behind the armed faults."""

        def faulty(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
            fault = self.pick(environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""))
            if fault is None:
                return app(environ, start_response)
            return self._apply(fault, app, environ, start_response)

        return faulty

    def _apply(self, fault: Fault, app: WSGIApplication, environ: WSGIEnvironment,
               start_response: StartResponse) -> Iterable[bytes]:
        if fault.kind is FaultKind.LATENCY:
            self._hold(fault.seconds, environ)
            return app(environ, start_response)
        if fault.kind is FaultKind.ERROR:
            return self._error(fault)(environ, start_response)
        if fault.kind is FaultKind.RESET:
            drop_connection(environ)
        answer = Response.from_app(app, environ, buffered=True)  # the request is applied here
        if fault.kind is FaultKind.TIMEOUT:
            self._hold(fault.seconds, environ)
            if not fault.drop:
                return answer(environ, start_response)
        drop_connection(environ)

    def _hold(self, seconds: float, environ: WSGIEnvironment) -> None:
        """Wait ``seconds``, then drop the request if the sandbox was reset meanwhile."""
        with self._lock:
            resets = self._resets
        time.sleep(seconds)
        with self._lock:
            reset_meanwhile = self._resets != resets
        if reset_meanwhile:
            drop_connection(environ)

    def _error(self, fault: Fault) -> Response:
        status = fault.status
        if status == TOO_MANY_REQUESTS:
            body = envelope({}, now=self._clock.now(), reason_code=TOO_MANY_REQUESTS_CODE,
                            errors=[], message="Sandbox fault: too many requests, try later")
        elif self._speaks_docs():
            status, body = SYSTEM_FAULT_STATUS, system_fault_body()
        else:
            body = envelope({}, now=self._clock.now(), reason_code=SYSTEM_ERROR, errors=[],
                            message="Sandbox fault: the gateway failed")
        headers = {} if fault.retryAfter is None else {"Retry-After": str(fault.retryAfter)}
        return Response(json.dumps(body), status=status, headers=headers,
                        mimetype="application/json")

