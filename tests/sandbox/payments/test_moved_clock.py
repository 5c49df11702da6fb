"""Moving the sandbox's clock (to see a review or a hold's expiry) does not break the merchants'
signatures: a token's age is judged on the sandbox's clock or on the real time clients sign
with, so one fresh by either passes and one stale by both is refused for its age."""

from __future__ import annotations

import pytest

from portal.gateway.errors import Unauthorized
from portal.gateway.payments.client import epoch_ms
from portal.gateway.payments.jws import TOKEN_LIFETIME_MS
from tests.sandbox.payments.support import initiate_body


@pytest.mark.parametrize("hours", [3, -3, 24 * 30])
def test_a_client_on_the_real_time_signs_whatever_the_sandbox_clock_says(make_client, clock,
                                                                        hours):
    clock.advance(hours * 3600)
    client = make_client(now_ms=epoch_ms)  # as the portal signs: with the real time
    started = client.initiate(initiate_body())
    assert client.status(started.gid).data.gid == started.gid


def test_a_token_stale_on_both_clocks_is_refused_for_its_age(make_client, clock):
    clock.advance(3 * 3600)
    stale = make_client(now_ms=lambda: epoch_ms() - TOKEN_LIFETIME_MS - 120_000)
    with pytest.raises(Unauthorized) as refused:
        stale.initiate(initiate_body())
    assert refused.value.display_message == "The token has expired"
