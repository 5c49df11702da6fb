"""A moved sandbox clock no longer makes every new hold fail as "refused credentials"; a token
refused for its age is worded as what it is, not as keys to check."""

from __future__ import annotations

from portal.domain.payments.service import failure_message
from portal.gateway.errors import Unauthorized
from tests.payments.support import post_hold


def test_a_hold_goes_through_after_the_sandbox_clock_was_moved(browser, sandbox, merchant_id,
                                                               credentials):
    sandbox.clock.advance(6 * 3600)  # as POST /_sandbox/clock does, to see a hold expire
    response = post_hold(browser, merchant_id)
    assert response.status_code == 302, response.get_data(as_text=True)


def test_a_refusal_for_the_tokens_age_says_so():
    refused = Unauthorized("initiate: the gateway refused our credentials", http_status=401,
                           display_message="The token has expired")
    words = failure_message(refused, "hold")
    assert words.startswith("The gateway refused the hold's signature as too old")
    assert "The keys are fine; check this server's clock." in words
    wrong_key = Unauthorized("initiate: the gateway refused our credentials", http_status=401,
                             display_message="No key is registered for this kid")
    assert "check that the public key and kid are registered" in failure_message(wrong_key,
                                                                                 "hold")
