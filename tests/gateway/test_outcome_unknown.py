"""Failed sends that are not retried: a POST the gateway may have applied (outcome unknown) or one
that never left (known failure), against the real loopback HTTP server (conftest.py)."""

from __future__ import annotations

import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.exceptions import MaxRetryError, NameResolutionError

from portal.gateway.errors import GatewayUnavailable
from tests.gateway.support import CREATE, error_body, merchant


def test_create_post_is_not_retried_on_503(server, make_client, sleeper) -> None:
    server.program(server.reply(503, error_body("SYSTEM_ERROR", "gl-503")))
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).create_onboarding(CREATE)
    assert len(server.received) == 1
    assert sleeper.delays == []
    assert caught.value.outcome_unknown is True
    assert caught.value.http_status == 503 and caught.value.gid == "gl-503"


def test_read_timeout_on_post_leaves_the_outcome_unknown(server, make_client, sleeper) -> None:
    server.program(server.slow(0.4, 200, server.ok_body(merchant())))
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url, read=0.1).create_onboarding(CREATE)
    assert caught.value.outcome_unknown is True
    assert "did not answer in time" in str(caught.value)
    assert len(server.received) == 1  # the request did arrive: it may have been applied
    assert sleeper.delays == []


def test_dropped_connection_on_post_leaves_the_outcome_unknown(server, make_client, sleeper):
    server.program(server.close())
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url).create_onboarding(CREATE)
    assert caught.value.outcome_unknown is True
    assert "connection to the gateway was lost" in str(caught.value)
    assert len(server.received) == 1
    assert sleeper.delays == []


def test_connection_refused_on_post_is_a_known_failure(refused_url, make_client, sleeper):
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(refused_url).create_onboarding(CREATE)
    assert caught.value.outcome_unknown is False  # nothing was sent
    assert "could not connect" in str(caught.value)
    assert sleeper.delays == []


class _NoDnsAdapter(HTTPAdapter):
    """Fails every send as requests does when the host name does not resolve."""

    def send(self, request, **kwargs):
        reason = NameResolutionError("gateway.invalid", None, OSError(-2, "Name not known"))
        raise requests.ConnectionError(MaxRetryError(None, request.path_url, reason))


def test_dns_failure_on_post_is_a_known_failure(make_client, sleeper) -> None:
    client = make_client("http://gateway.invalid")
    client.transport._session().mount("http://", _NoDnsAdapter())
    with pytest.raises(GatewayUnavailable) as caught:
        client.create_onboarding(CREATE)
    assert caught.value.outcome_unknown is False
    assert "could not connect" in str(caught.value)
    assert sleeper.delays == []
