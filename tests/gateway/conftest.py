"""Fixtures of the gateway tests: RSA keys and a tiny programmable loopback HTTP server."""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.retry import RetryPolicy
from portal.gateway.transport import Timeouts
from tests.support.sleeps import SleepRecorder

API_KEY = "ak_test_partner_7f3a"
API_SECRET = "s3cr3t-Ω-key"  # the same secret the openssl vectors in test_hmac_digest use


# ---------------------------------------------------------------- keys


@dataclass(frozen=True)
class KeyPair:
    """An RSA key pair as PEM bytes."""

    private_pem: bytes
    public_pem: bytes


def _new_key_pair() -> KeyPair:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return KeyPair(private_pem, public_pem)


@pytest.fixture(scope="session")
def merchant_keys() -> KeyPair:
    """The merchant's signing key pair."""
    return _new_key_pair()


@pytest.fixture(scope="session")
def other_keys() -> KeyPair:
    """An unrelated key pair, for wrong-key tests."""
    return _new_key_pair()


# ---------------------------------------------------------------- loopback server


@dataclass(frozen=True)
class Received:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Answer:
    """What the server does with one request."""

    kind: str = "reply"  # "reply" | "close" | "slow"
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def reply(status: int = 200, body: Any = None, headers: dict[str, str] | None = None) -> Answer:
    """Answer with ``status`` and a JSON body."""
    return Answer("reply", status, body, headers or {})


def close() -> Answer:
    """Read the request, then close the connection without answering."""
    return Answer("close")


def slow(delay: float, status: int = 200, body: Any = None) -> Answer:
    """Answer only after ``delay`` seconds (at most; the fixture's teardown cuts it short)."""
    assert delay <= 0.5, "keep server-side delays bounded"
    return Answer("slow", status, body, {}, delay)


def ok_body(data: Any = None) -> dict[str, Any]:
    """A success envelope."""
    return {
        "gid": "gl-ok-1",
        "timestamp": "01/01/2025 10:00:00",
        "reasonCode": "SUCCESS",
        "data": data if data is not None else {},
        "errors": None,
    }


class _Server(ThreadingHTTPServer):
    # join handler threads on close, so no test leaks a thread into the next
    daemon_threads = False
    block_on_close = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answers: deque[Answer] = deque()
        self.received: list[Received] = []
        self.release = threading.Event()
        self.lock = threading.Lock()

    def next_answer(self) -> Answer:
        with self.lock:
            return self.answers.popleft() if self.answers else reply(200, ok_body())

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (read timeout) is expected; stay quiet."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server: _Server

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with self.server.lock:
            self.server.received.append(
                Received(self.command, self.path, dict(self.headers.items()), body)
            )
        answer = self.server.next_answer()
        if answer.kind == "close":
            self.close_connection = True
            return
        if answer.kind == "slow":
            self.server.release.wait(answer.delay)
        payload = json.dumps(answer.body).encode("utf-8") if answer.body is not None else b""
        try:
            self.send_response(answer.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in answer.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
        except OSError:
            pass  # the client gave up waiting

    do_GET = do_POST = do_PUT = _handle

    def log_message(self, format: str, *args: Any) -> None:
        """No access log on stderr."""


class LoopbackServer:
    """Handle on the running server: program its answers, read what it received."""

    def __init__(self, server: _Server) -> None:
        self._server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"

    def program(self, *answers: Answer) -> None:
        """Queue answers for the next requests; later requests get a 200 success envelope."""
        self._server.answers.extend(answers)

    @property
    def received(self) -> list[Received]:
        return list(self._server.received)

    reply = staticmethod(reply)
    close = staticmethod(close)
    slow = staticmethod(slow)
    ok_body = staticmethod(ok_body)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A real HTTP server on a free loopback port, for one test."""
    httpd = _Server()
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield LoopbackServer(httpd)
    finally:
        httpd.release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture
def refused_url() -> Iterator[str]:
    """A loopback URL whose port is bound but not listening: connecting is refused."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        sock.close()


@dataclass(frozen=True)
class Credentials:
    """The partner's API key and secret."""

    api_key: str
    api_secret: str


@pytest.fixture
def credentials() -> Credentials:
    return Credentials(API_KEY, API_SECRET)


@pytest.fixture
def sleeper() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def make_client(sleeper: SleepRecorder):
    """Build an OnboardingClient for a base URL with small timeouts and no real sleeping."""
    sessions: list[requests.Session] = []

    def make(base_url: str, *, read: float = 2.0, attempts: int = 3) -> OnboardingClient:
        session = requests.Session()
        session.trust_env = False  # no proxy from the environment between us and loopback
        sessions.append(session)
        return OnboardingClient(
            base_url,
            API_KEY,
            API_SECRET,
            timeouts=Timeouts(connect=1.0, read=read),
            retry=RetryPolicy(attempts=attempts, base_delay=0.25, max_delay=4.0),
            session=session,
            sleep=sleeper,
        )

    yield make
    for session in sessions:
        session.close()
