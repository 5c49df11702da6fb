"""Each key's calls a minute, counted in the database: two portal hosts on one database share
the count; the call past the limit is a 429 with Retry-After, and the next minute opens again."""

from __future__ import annotations

from portal.app.factory import create_app
from portal.domain.api.scopes import Scope
from tests.api.support import Api


def test_the_call_past_the_limit_waits_for_the_next_minute(app, client, issue_key, portal_clock):
    api = Api(client, issue_key(Scope.READ_MERCHANTS, per_minute=2))
    assert [api.get("/merchants").status_code for _ in range(2)] == [200, 200]
    refused = api.get("/merchants")
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "60"  # the portal's clock is at a whole minute
    assert "2 calls a minute" in refused.json["detail"]
    portal_clock.advance(60)
    assert api.get("/merchants").status_code == 200


def test_two_hosts_share_one_limit(app, settings, issue_key):
    token = issue_key(Scope.READ_MERCHANTS, per_minute=3)
    other_host = create_app(settings)
    hosts = [Api(app.test_client(), token), Api(other_host.test_client(), token)]
    answers = [hosts[n % 2].get("/merchants").status_code for n in range(4)]
    assert answers == [200, 200, 200, 429]


def test_a_key_over_its_limit_leaves_other_keys_alone(client, issue_key):
    busy = Api(client, issue_key(Scope.READ_MERCHANTS, per_minute=1))
    calm = Api(client, issue_key(Scope.READ_MERCHANTS, per_minute=1))
    assert [busy.get("/merchants").status_code for _ in range(2)] == [200, 429]
    assert calm.get("/merchants").status_code == 200
