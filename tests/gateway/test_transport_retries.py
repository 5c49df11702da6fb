"""Which failed sends are retried (GET, PUT: the same signed bytes) and how long the client waits.

Against the real loopback HTTP server (conftest.py), programmed per test; nothing really sleeps:
the client's ``sleep`` is a recorder.
"""

from __future__ import annotations

import pytest

from portal.gateway.errors import GatewayUnavailable
from portal.gateway.onboarding.answers import MerchantData
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from tests.gateway.support import BANK, error_body, independent_hmac, merchant


def test_get_is_retried_on_503_then_succeeds(server, make_client, sleeper) -> None:
    server.program(
        server.reply(503, error_body("SYSTEM_ERROR", "gl-5a")),
        server.reply(503, error_body("SYSTEM_ERROR", "gl-5b")),
        server.reply(200, server.ok_body(merchant("IN_PROGRESS"))),
    )
    result = make_client(server.url).get_status("ob-123")
    assert isinstance(result, MerchantData)
    assert result.merchantInfo.onboardingStatus == OnboardingStatus.IN_PROGRESS
    assert [r.method for r in server.received] == ["GET", "GET", "GET"]
    assert len(sleeper.delays) == 2
    assert 0 <= sleeper.delays[0] <= 0.25 and 0 <= sleeper.delays[1] <= 0.5


def test_get_gives_up_after_the_last_attempt(server, make_client, sleeper) -> None:
    server.program(*[server.reply(503, error_body("SYSTEM_ERROR", f"gl-{i}")) for i in range(5)])
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(server.url, attempts=3).get_status("ob-123")
    assert len(server.received) == 3
    assert len(sleeper.delays) == 2
    assert caught.value.http_status == 503
    assert caught.value.gid == "gl-2"
    assert caught.value.outcome_unknown is False  # a GET changes nothing


def test_put_is_retried_with_the_same_signed_bytes(server, make_client, credentials) -> None:
    server.program(
        server.reply(502, error_body("SYSTEM_ERROR", "gl-502")),
        server.reply(200, server.ok_body(merchant())),
    )
    make_client(server.url).update_bank_details("ob-123", BANK)
    first, second = server.received
    assert first.method == second.method == "PUT"
    assert first.body == second.body
    assert first.headers["x-gl-digest"] == second.headers["x-gl-digest"]
    assert second.headers["x-gl-digest"] == independent_hmac(credentials.api_secret, second.body)


def test_retry_after_is_honoured_and_capped(server, make_client, sleeper) -> None:
    server.program(
        server.reply(503, error_body("SYSTEM_ERROR", "a"), {"Retry-After": "2"}),
        server.reply(429, error_body("TOO_MANY", "b"), {"Retry-After": "120"}),
        server.reply(200, server.ok_body(merchant())),
    )
    make_client(server.url).get_status("ob-123")
    assert sleeper.delays == [2.0, 4.0]
    assert len(server.received) == 3


def test_read_timeout_on_get_is_retried(server, make_client, sleeper) -> None:
    server.program(server.slow(0.4), server.reply(200, server.ok_body(merchant())))
    # attempts to spare: on a loaded machine even the quick answer could miss 0.1 s
    result = make_client(server.url, read=0.1, attempts=5).get_status("ob-123")
    assert result.merchantInfo.onboardingId == "ob-123"
    assert len(server.received) >= 2  # the slow first answer was given up on
    assert len(sleeper.delays) == len(server.received) - 1


def test_dropped_connection_on_put_is_retried(server, make_client, sleeper) -> None:
    server.program(server.close(), server.reply(200, server.ok_body(merchant())))
    make_client(server.url).update_bank_details("ob-123", BANK)
    assert [r.method for r in server.received] == ["PUT", "PUT"]
    assert len(sleeper.delays) == 1


def test_connection_refused_on_get_is_retried_then_fails(refused_url, make_client, sleeper):
    with pytest.raises(GatewayUnavailable) as caught:
        make_client(refused_url, attempts=3).get_status("ob-123")
    assert caught.value.outcome_unknown is False
    assert len(sleeper.delays) == 2


def test_the_real_gateways_501_system_error_on_a_put_is_retried(server, make_client, sleeper):
    server.program(server.reply(501, {"status": "SYSTEM_ERROR", "reasonCode": "GL-501-000"}),
                   server.reply(200, server.ok_body(merchant())))
    make_client(server.url).update_bank_details("ob-123", BANK)
    assert [r.method for r in server.received] == ["PUT", "PUT"]
    assert len(sleeper.delays) == 1
