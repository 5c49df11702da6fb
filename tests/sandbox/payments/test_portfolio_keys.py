"""Portfolio (parent MID) keys over loopback HTTP: one key of the parent signs for each of its
sub-merchants, as the official Python SDK signs with ``glocalMerchant.parentMid``
(docs/gateway-contract.md, "Portfolio (parent) keys"; docs/gateway-facts.md B1 and C)."""

from __future__ import annotations

import json

import pytest
from jwcrypto import jwe, jwk, jws

from portal.gateway.errors import Unauthorized
from portal.gateway.payments.jws import TOKEN_LIFETIME_MS, read_header, sha256_b64
from portal.gateway.transport import json_bytes
from tests.sandbox.payments.support import (
    KID,
    MID,
    OTHER_MID,
    PARENT_KID,
    PARENT_MID,
    SUB_MID,
    initiate_body,
)


@pytest.fixture
def portfolio_client(make_client, parent_keys):
    """Builds a client signing for ``mid`` with PARENT_MID's portfolio key."""

    def make(mid: str = SUB_MID, **options):
        return make_client(mid=mid, kid=PARENT_KID, private_pem=parent_keys.private_pem,
                           parent_mid=PARENT_MID, **options)

    return make


def _assert_unauthorized(response) -> None:
    assert response.status_code == 401, response.text
    assert response.json()["reasonCode"] == "UNAUTHORIZED"


def test_portfolio_token_header_names_the_parent_and_the_sub_merchant(portfolio_client):
    prepared = portfolio_client().prepare("initiate", initiate_body())
    header = read_header(prepared.headers["x-gl-token-external"])
    assert header["kid"] == PARENT_KID
    assert header["issued-by"] == PARENT_MID
    assert header["x-gl-kid-mid"] == PARENT_MID
    assert header["x-gl-merchantId"] == SUB_MID
    assert prepared.headers["x-gl-merchantid"] == SUB_MID
    assert prepared.headers["x-gl-kid-mid"] == PARENT_MID


@pytest.mark.parametrize("encrypt", [False, True], ids=["json", "jwe"])
def test_portfolio_key_initiates_and_reads_status_for_a_sub_merchant(portfolio_client, sandbox,
                                                                     encrypt):
    client = portfolio_client(encrypt=encrypt)
    started = client.initiate(initiate_body())
    assert started.status == "INPROGRESS"
    assert sandbox.payments.get(started.gid).mid == SUB_MID  # the payment is the sub-merchant's
    assert client.status(started.gid).data.gid == started.gid


def test_jwe_of_a_portfolio_is_issued_by_the_parent(portfolio_client, sandbox, gateway_keys):
    prepared = portfolio_client(encrypt=True).prepare("initiate", initiate_body())
    token = jwe.JWE()
    token.deserialize(prepared.body.decode("ascii"), jwk.JWK.from_pem(
        gateway_keys.private_pem.encode()))
    assert token.jose_header["issued-by"] == PARENT_MID


def test_a_sub_merchant_with_its_own_key_may_also_use_the_portfolio_key(portfolio_client,
                                                                         make_client):
    own = make_client().initiate(initiate_body(merchantTxnId="OWNKEY1"))
    via_parent = portfolio_client(mid=MID).status(own.gid)
    assert via_parent.data.gid == own.gid


def test_portfolio_key_for_a_merchant_outside_the_portfolio_is_401(portfolio_client):
    with pytest.raises(Unauthorized) as error:
        portfolio_client(mid=OTHER_MID).initiate(initiate_body())
    assert error.value.http_status == 401


def test_portfolio_key_without_x_gl_kid_mid_is_401(signer, parent_keys):
    body = json_bytes(initiate_body())
    token = signer.token(body, kid=PARENT_KID, mid=SUB_MID, private_pem=parent_keys.private_pem)
    _assert_unauthorized(signer.post(raw=body, token=token,
                                     headers={"x-gl-merchantid": SUB_MID, "x-gl-kid": PARENT_KID}))


def test_x_gl_kid_mid_naming_another_parent_is_401(signer, clock, parent_keys):
    body = json_bytes(initiate_body())
    token = _sdk_token(body, clock.now_ms(), parent_keys, kid_mid=OTHER_MID)
    _assert_unauthorized(signer.post(raw=body, token=token,
                                     headers={"x-gl-merchantid": SUB_MID, "x-gl-kid": PARENT_KID}))


def test_x_gl_kid_mid_on_a_plain_merchant_key_is_401(signer, clock, merchant_keys):
    # MID's own key claiming to be a portfolio: MID is nobody's parent
    body = json_bytes(initiate_body())
    header = {"kid": KID, "issued-by": MID, "x-gl-kid-mid": MID, "x-gl-merchantId": SUB_MID,
              "x-gl-enc": "false", "is-digested": "true"}
    token = signer.claims_token(_claims(body, clock.now_ms()), header)
    _assert_unauthorized(signer.post(raw=body, token=token, headers={"x-gl-merchantid": SUB_MID}))


def test_http_x_gl_kid_mid_differing_from_the_token_is_401(portfolio_client, http, sandbox):
    prepared = portfolio_client().prepare("initiate", initiate_body())
    prepared.headers["x-gl-kid-mid"] = OTHER_MID
    _assert_unauthorized(http.send(prepared, timeout=5))


def test_sub_merchants_registered_at_runtime_join_the_portfolio(http, sandbox, make_client,
                                                                stranger_keys):
    registration = {"mid": "MIDPARENT02", "kid": "kid-parent-2",
                    "publicKeyPem": stranger_keys.public_pem, "subMerchants": ["MIDSUB00009"]}
    answer = http.post(sandbox.url + "/_sandbox/merchants", json=registration, timeout=5)
    assert answer.status_code == 200, answer.text
    client = make_client(mid="MIDSUB00009", kid="kid-parent-2",
                         private_pem=stranger_keys.private_pem, parent_mid="MIDPARENT02")
    assert client.initiate(initiate_body()).status == "INPROGRESS"
    outsider = make_client(mid=SUB_MID, kid="kid-parent-2",
                           private_pem=stranger_keys.private_pem, parent_mid="MIDPARENT02")
    with pytest.raises(Unauthorized):
        outsider.initiate(initiate_body())


def _claims(body: bytes, now_ms: int) -> dict:
    return {"digest": sha256_b64(body), "digestAlgorithm": "SHA-256", "iat": str(now_ms),
            "exp": TOKEN_LIFETIME_MS}


def _sdk_token(body: bytes, now_ms: int, keys, *, kid_mid: str) -> str:
    """A portfolio token signed with jwcrypto, its x-gl-kid-mid set to ``kid_mid``."""
    header = {"alg": "RS256", "kid": PARENT_KID, "x-gl-merchantId": SUB_MID,
              "x-gl-enc": "false", "issued-by": PARENT_MID, "is-digested": "true",
              "x-gl-kid-mid": kid_mid}
    token = jws.JWS(payload=json.dumps(_claims(body, now_ms)))
    token.add_signature(jwk.JWK.from_pem(keys.private_pem.encode()), protected=header)
    return token.serialize(compact=True)
