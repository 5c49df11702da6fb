"""The one place where a gateway request is built, signed, sent, retried and mapped to errors."""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import IO, Any, TypeVar

import requests
from urllib3.exceptions import NewConnectionError

from portal.gateway.errors import GatewayError, GatewayUnavailable, error_for_response
from portal.gateway.retry import RetryPolicy, safe_to_repeat
from portal.gateway.telemetry import observe_call
from portal.gateway.tracing import REQUEST_ID_HEADER, request_id

log = logging.getLogger("portal.gateway")

Read = TypeVar("Read")


@dataclass(frozen=True)
class Timeouts:
    """Connect and read timeouts in seconds."""

    connect: float = 5.0
    read: float = 30.0


@dataclass
class Reply:
    """A 2xx answer: its status, parsed JSON body and headers."""

    status: int
    body: Any
    headers: Mapping[str, str] = field(default_factory=dict)


def json_bytes(value: Any) -> bytes:
    """Compact UTF-8 JSON; these exact bytes are what is signed and sent."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _parse(response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


class Transport:
    """Sends prepared, signed requests to one base URL with timeouts and a retry policy.

    Threads may share a transport: unless one ``session`` is given, each thread gets its own
    ``requests.Session`` (a session's cookie jar and pool are not documented thread-safe).
    """

    def __init__(
        self,
        base_url: str,
        *,
        auth: requests.auth.AuthBase | None = None,
        timeouts: Timeouts = Timeouts(),
        retry: RetryPolicy = RetryPolicy(),
        session: requests.Session | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._auth = auth
        self._timeouts = timeouts
        self._retry = retry
        self._shared_session = session
        self._local = threading.local()
        self._sleep = sleep
        self._rng = rng or random.Random()  # noqa: S311  # nosec B311  # retry jitter only

    def prepare(
        self,
        method: str,
        path: str,
        *,
        body: bytes | IO[bytes] | None = None,
        content_type: str = "application/json",
        headers: Mapping[str, str] | None = None,
        auth: requests.auth.AuthBase | None = None,
    ) -> requests.PreparedRequest:
        """Build the request exactly as it will go on the wire, auth applied last; it carries
        the id of the portal request it is made for, when there is one. A file body (with a
        length) is streamed from the file with its Content-Length."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        if request_id.get():
            all_headers[REQUEST_ID_HEADER] = request_id.get()
        if body is not None:
            all_headers["Content-Type"] = content_type
        request = requests.Request(method, self.base_url + path, data=body, headers=all_headers,
                                   auth=auth or self._auth)
        return self._session().prepare_request(request)

    def send(self, prepared: requests.PreparedRequest, operation: str) -> Reply:
        """Send with retries as the policy allows; return the 2xx reply or raise GatewayError.

        Each call is counted in the gateway metrics with its outcome and time."""
        return self.send_and_read(prepared, operation, _as_is)

    def send_and_read(self, prepared: requests.PreparedRequest, operation: str,
                      read: Callable[[Reply], Read]) -> Read:
        """Send as :meth:`send` does and ``read`` the 2xx reply (``onboarding_reading``,
        ``payments_reading``): a 2xx the reader judges a refusal, or cannot read, is counted as
        such in the metrics."""
        started = time.monotonic()
        try:
            answer = read(self._send(prepared, operation))
        except Exception as error:
            observe_call(operation, error, time.monotonic() - started)
            raise
        observe_call(operation, None, time.monotonic() - started)
        return answer

    def _send(self, prepared: requests.PreparedRequest, operation: str) -> Reply:
        attempt = 0
        while True:
            attempt += 1
            started = time.monotonic()
            _rewind(prepared)
            try:
                response = self._session().send(
                    prepared, timeout=(self._timeouts.connect, self._timeouts.read),
                    allow_redirects=False,
                )
            except requests.RequestException as exc:
                kind = _transport_failure(exc)
                log.warning("%s %s %s failed after %.0f ms: %s (attempt %d)", operation,
                            prepared.method, _path(prepared), _ms(started), kind, attempt)
                if self._retry.should_retry(prepared.method or "", attempt, error=kind):
                    self._sleep(self._retry.delay(attempt, self._rng))
                    continue
                raise GatewayUnavailable(
                    f"{operation}: {_FAILURE_TEXT[kind]}",
                    outcome_unknown=kind != "connect" and not safe_to_repeat(prepared.method or ""),
                ) from None
            body = _parse(response)
            log.info("%s %s %s -> %d gid=%s in %.0f ms", operation, prepared.method,
                     _path(prepared), response.status_code,
                     body.get("gid", "") if isinstance(body, dict) else "", _ms(started))
            if 200 <= response.status_code < 300:
                return Reply(response.status_code, body, response.headers)
            if self._retry.should_retry(prepared.method or "", attempt,
                                        status=response.status_code):
                self._sleep(self._retry.delay(attempt, self._rng,
                                              _retry_after(response.headers)))
                continue
            error: GatewayError = error_for_response(response.status_code, body, operation,
                                                     _retry_after(response.headers))
            if isinstance(error, GatewayUnavailable) and response.status_code >= 500:
                # a 429 was not taken; a 5xx to a POST may have been
                error.outcome_unknown = not safe_to_repeat(prepared.method or "")
            raise error

    def _session(self) -> requests.Session:
        """The given session, or this thread's own."""
        if self._shared_session is not None:
            return self._shared_session
        session: requests.Session | None = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = self._new_session()
        return session

    def _new_session(self) -> requests.Session:
        """A session with the environment's proxy for the gateway read once, here: by default
        requests scans the environment again on every call (about 0.2 ms each)."""
        session = requests.Session()
        session.proxies = requests.utils.get_environ_proxies(self.base_url)
        session.trust_env = False
        return session


_FAILURE_TEXT = {
    "connect": "could not connect to the gateway",
    "timeout": "the gateway did not answer in time",
    "connection": "the connection to the gateway was lost",
}


def _transport_failure(exc: requests.RequestException) -> str:
    if isinstance(exc, requests.ConnectTimeout):
        return "connect"
    if isinstance(exc, requests.Timeout):
        return "timeout"
    if isinstance(exc, requests.ConnectionError) and _never_connected(exc):
        return "connect"
    return "connection"


def _never_connected(exc: BaseException) -> bool:
    """Whether the connection was never made (refused, DNS failure): nothing was sent."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        # NameResolutionError is a NewConnectionError too (urllib3 2.x)
        if isinstance(current, NewConnectionError):
            return True
        reason = getattr(current, "reason", None)
        nested = current.args[0] if current.args else None
        current = next(
            (e for e in (reason, nested, current.__cause__, current.__context__)
             if isinstance(e, BaseException)),
            None,
        )
    return False


def _rewind(prepared: requests.PreparedRequest) -> None:
    """Put a file body back at its start, so every attempt sends all of it."""
    seek = getattr(prepared.body, "seek", None)
    if seek is not None:
        seek(0)


def _as_is(reply: Reply) -> Reply:
    return reply


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """``Retry-After`` in seconds: a number of seconds or an HTTP date; None when absent or
    unreadable."""
    value = headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        return max(parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
    except (TypeError, ValueError):
        return None


def _path(prepared: requests.PreparedRequest) -> str:
    # path only: a status URL's query may hold a pre-authenticated token
    return (prepared.path_url or "").split("?", 1)[0]


def _ms(started: float) -> float:
    return (time.monotonic() - started) * 1000
