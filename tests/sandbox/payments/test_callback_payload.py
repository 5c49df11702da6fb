"""The customer's return carries the payload the PHP SDK recorded from the real gateway."""

from __future__ import annotations

import base64
import json

from portal.sandbox.payments.tokens import GATEWAY_ISSUER
from tests.sandbox.payments.support import MID, claims_of, initiate_body, pay_by_card, returned

#: The claims the gateway's PHP SDK recorded (docs/gateway-facts.md C, Callback payload recorded).
RECORDED_CLAIMS = {"gid", "status", "statusUrl", "merchantUniqueId", "x-gl-gid",
                   "x-gl-merchantId", "iat", "exp"}


def _header(token: str) -> dict:
    part = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_the_callback_token_has_the_recorded_claims_and_header(client, http, sandbox,
                                                               gateway_keys):
    started = client.initiate(initiate_body())
    back = returned(pay_by_card(http, started.data.redirectUrl, "4111111111111111"))
    claims = claims_of(back.token, gateway_keys.public_pem, sandbox.clock.now_ms())
    assert set(claims) == RECORDED_CLAIMS
    assert (claims["gid"], claims["x-gl-gid"], claims["x-gl-merchantId"]) == (
        started.gid, started.gid, MID)
    assert (claims["status"], claims["merchantUniqueId"]) == ("AUTHORIZED", "UNIQUE0000000001")
    assert claims["exp"] == 300000
    assert _header(back.token)["issued-by"] == GATEWAY_ISSUER == "Glocal"
    # the statusUrl in the token is a working pre-authenticated status address
    assert client.status_by_url(claims["statusUrl"]).data.status == "AUTHORIZED"


def test_without_merchant_unique_id_the_claim_is_left_out(client, http, sandbox, gateway_keys):
    body = initiate_body()
    del body["merchantUniqueId"]
    started = client.initiate(body)
    back = returned(pay_by_card(http, started.data.redirectUrl, "4111111111111111"))
    claims = claims_of(back.token, gateway_keys.public_pem, sandbox.clock.now_ms())
    assert "merchantUniqueId" not in claims
    assert claims["gid"] == started.gid
