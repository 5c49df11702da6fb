"""A gateway front on loopback: every request goes on to the sandbox byte for byte (so the
HMAC over the body and path still holds) and its answer comes back, unless the test programmed
that request's answer: a reply of its own (a 429 with Retry-After, an unreadable 2xx), sent
with or without the sandbox applying the request first, or the sandbox's answer rewritten (into
the docs' shapes, say).

A request is matched by method and the end of its path (``"PUT", "/bank-details"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import requests
from werkzeug.wrappers import Request, Response

from tests.support.servers import serve

_HOP_HEADERS = {"host", "content-length", "connection", "accept-encoding", "transfer-encoding"}
#: A rewrite of the sandbox's JSON answer.
Rewrite = Callable[[Any], Any]


@dataclass
class _Rule:
    method: str
    suffix: str
    times: int | None
    status: int = 200
    body: bytes | None = None
    headers: dict[str, str] | None = None
    rewrite: Rewrite | None = None
    forward: bool = False

    def matches(self, method: str, path: str) -> bool:
        return (self.times is None or self.times > 0) and method == self.method \
            and path.split("?", 1)[0].endswith(self.suffix)


class GatewayFront:
    """The programmable front (see the module doc); ``received`` lists ``"METHOD path"``."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.url = ""
        self.received: list[str] = []
        self._rules: list[_Rule] = []

    def reply(self, method: str, suffix: str, status: int, body: Any = None, *,
              headers: dict[str, str] | None = None, times: int | None = 1,
              forward: bool = False) -> None:
        """Answer matching requests with ``status`` and ``body`` (JSON, or bytes as they are);
        ``forward``: the sandbox applies the request first, its answer is dropped."""
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        self._rules.append(_Rule(method, suffix, times, status, raw, headers, forward=forward))

    def rewrite(self, method: str, suffix: str, rewrite: Rewrite, times: int | None = None
                ) -> None:
        """Hand back the sandbox's 2xx answer to matching requests as ``rewrite`` makes it."""
        self._rules.append(_Rule(method, suffix, times, rewrite=rewrite, forward=True))

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request = Request(environ)
        path = request.full_path.rstrip("?") if request.query_string else request.path
        self.received.append(f"{request.method} {path}")
        rule = next((r for r in self._rules if r.matches(request.method, path)), None)
        if rule is not None and rule.times is not None:
            rule.times -= 1
        answer = None
        if rule is None or rule.forward:
            answer = requests.request(
                request.method, self.upstream + path, data=request.get_data(), timeout=10,
                headers={k: v for k, v in request.headers.items()
                         if k.lower() not in _HOP_HEADERS}, allow_redirects=False)
        if rule is None or (rule.rewrite is not None and not answer.ok):
            response = Response(answer.content, answer.status_code,
                                content_type=answer.headers.get("Content-Type"))
        elif rule.rewrite is not None:
            response = Response(json.dumps(rule.rewrite(answer.json())), answer.status_code,
                                content_type="application/json")
        else:
            response = Response(rule.body, rule.status, headers=rule.headers or {},
                                content_type="application/json")
        return response(environ, start_response)


@contextmanager
def gateway_front(upstream: str) -> Iterator[GatewayFront]:
    """A :class:`GatewayFront` before ``upstream``, served on loopback."""
    front = GatewayFront(upstream)
    with serve(front) as url:
        front.url = url
        yield front
