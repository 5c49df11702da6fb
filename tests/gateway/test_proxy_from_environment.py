"""The gateway is reached through the proxy the environment names, read once per connection
pool rather than on every call; NO_PROXY still exempts a host."""

from __future__ import annotations

import pytest

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.transport import Timeouts
from tests.gateway.support import merchant

API_KEY, API_SECRET = "key-1", "secret-1"


def _client(base_url: str) -> OnboardingClient:
    return OnboardingClient(base_url, API_KEY, API_SECRET, timeouts=Timeouts(1.0, 2.0))


def test_the_environments_proxy_carries_the_call(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", server.url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    server.program(server.reply(200, server.ok_body(merchant("IN_PROGRESS"))))
    _client("http://gateway.example").get_status("ob-123")
    [received] = server.received
    assert received.path.startswith("http://gateway.example/")  # a proxy's absolute form


def test_the_proxy_is_read_once_per_pool(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", server.url)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    server.program(*[server.reply(200, server.ok_body(merchant("IN_PROGRESS")))] * 2)
    client = _client("http://gateway.example")
    client.get_status("ob-1")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    client.get_status("ob-2")  # still through the proxy read for the first call
    assert [r.path.startswith("http://gateway.example/") for r in server.received] == [True] * 2


def test_no_proxy_exempts_the_gateway_host(server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    server.program(server.reply(200, server.ok_body(merchant("IN_PROGRESS"))))
    _client(server.url).get_status("ob-123")
    [received] = server.received
    assert received.path.startswith("/")  # straight to the gateway
