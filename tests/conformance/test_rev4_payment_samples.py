"""The payments samples of contract revision 4 (docs/gateway-facts.md E, samples-rev4), each
replayed through the client's reader from a loopback server that answers with it, or, for tokens,
signed and verified as a callback: what the client makes of every recorded shape. Each test names
its sample; the sample names its source (repository, path and commit)."""
# ruff: noqa: F811

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from portal.core.models.payment import Payment
from portal.core.payment_statuses import POLLED
from portal.domain.payments import polling
from portal.domain.payments.status_apply import names_this_payment
from portal.gateway.errors import GatewayUnavailable, MayAlreadyExist
from portal.gateway.payments.client import verify_callback_token
from portal.gateway.payments.jws import load_private_key, sign_claims
from portal.gateway.payments.words import is_partial_approval
from tests.conformance.canned import CannedGateway, canned  # noqa: F401  # a fixture
from tests.conformance.rev4_samples import sample
from tests.sandbox.payments.support import gateway_keys  # noqa: F401  # a fixture

PATH_GID = "gl_o-path0000000000000000000"
NOW = datetime(2026, 6, 3, 10, 15, tzinfo=UTC)


def answer_with(gateway: CannedGateway, name: str) -> str:
    """Have the gateway answer with the sample; its source."""
    found = sample(name)
    gateway.status, gateway.body = found.http, found.body
    gateway.headers = found.extra.get("headers", {})
    return found.source


def stored(gid: str, unique_id: str = "U" * 16, transaction_gid: str | None = None) -> Payment:
    """A payment as the portal stores it (not in a database)."""
    return Payment(gid=gid, transaction_gid=transaction_gid, merchant_unique_id=unique_id,
                   merchant_txn_id="T" * 8, status="INPROGRESS", rate_limited_reads=0)


# ---------------------------------------------------------------- status answers


def test_status_with_two_ids_names_the_order_in_data(canned):
    gateway, client = canned
    assert "openapi.yaml@a3e292a" in answer_with(gateway, "status-two-ids.openapi.json")
    answer = client.status("gl_o-a058857664323e2d9ge6c0ZX2")
    assert answer.payment_gid == "gl_o-a058857664323e2d9ge6c0ZX2" != answer.gid
    assert (answer.payment_status, answer.data.amount) == ("AUTHORIZED", "10")
    assert answer.data.currency == "CAD"  # txnCurrency; Currency INR is a settlement currency
    assert names_this_payment(stored(answer.payment_gid, "x"), answer)
    assert not names_this_payment(stored(answer.gid, "x"), answer)  # never the envelope gid


def test_status_with_the_envelope_saying_only_success(canned):
    gateway, client = canned
    assert "openapi.yaml@08a46d4" in answer_with(gateway, "status-envelope-success.openapi.json")
    answer = client.status("gl_9c2645ed09edb22e")
    assert (answer.status, answer.payment_status) == ("SUCCESS", "SENT_FOR_CAPTURE")
    assert (answer.data.amount, answer.data.currency) == ("100.00", "INR")


def test_the_recorded_status_answer_of_2025(canned):
    gateway, client = canned
    assert "Parthsingh2111/api-docs-demo" in answer_with(
        gateway, "status-two-ids.uat-recording.json")
    answer = client.status("gl_o-9a540860426e0b24ad6a0HwX2")
    assert answer.payment_gid == "gl_o-9a540860426e0b24ad6a0HwX2"
    assert (answer.payment_status, answer.data.amount, answer.data.currency) == (
        "SENT_FOR_CAPTURE", "499.00", "GBP")
    # its data names another order than the one the session initiated: not that payment's
    assert not names_this_payment(stored("gl_o-9a713b1e00fb3a3393b0gIaX2", "x"), answer)


def test_status_whose_envelope_says_created_and_data_the_state(canned):
    gateway, client = canned
    assert "get-status-service.mdx" in answer_with(gateway, "status-envelope-differs.docs.json")
    answer = client.status("23AEE8CB6B62EE2AF07")
    assert (answer.status, answer.payment_status) == ("CREATED", "SENT_FOR_CAPTURE")


def test_a_conditional_decline_is_read_again_for_the_late_window(canned):
    gateway, client = canned
    source = answer_with(gateway, "status-conditional-decline.constructed.json")
    assert "faq.mdx" in source or "constructed" in source.lower(), source
    answer = client.status("gl_o-a0591f0c2b7e3d449kq4xZX2")
    assert (answer.payment_status, answer.data.reasonCode) == ("CONDITIONAL_DECLINE",
                                                               "GL-201-006")
    assert answer.payment_status in POLLED
    payment = stored(answer.payment_gid, "x")
    payment.status, payment.soft_declined_at = answer.payment_status, NOW
    payment.action_state = "idle"
    rules = polling.PollRules(late_window=timedelta(hours=72))
    assert polling.needs_polling(payment, NOW + timedelta(hours=71), rules)
    assert not polling.needs_polling(payment, NOW + timedelta(hours=73), rules)


# ---------------------------------------------------------------- initiate answers


def test_the_initiate_answer_of_2025_names_the_order(canned):
    gateway, client = canned
    assert "api-docs-demo" in answer_with(gateway, "initiate-order-id.uat-recording.json")
    answer = client.initiate(initiate_body())
    assert answer.payment_gid == "gl_o-9a713b1e00fb3a3393b0gIaX2"
    assert answer.payment_gid in (answer.data.statusUrl or "")


def test_the_initiate_answer_of_2021_has_one_id(canned):
    gateway, client = canned
    assert "payglocal-python-sdk" in answer_with(gateway, "initiate-one-id.python-sdk.json")
    answer = client.initiate(initiate_body())
    assert answer.payment_gid == "gl_a0f33682-dbac-420a-b83d-00ea3fd16873"


def test_a_duplicate_merchant_txn_id_may_already_exist(canned):
    gateway, client = canned
    assert "auth-capture-authorise" in answer_with(
        gateway, "initiate-duplicate-merchanttxnid.docs.json")
    with pytest.raises(MayAlreadyExist) as caught:
        client.initiate(initiate_body())
    assert caught.value.outcome_unknown and caught.value.http_status == 400


def test_a_rate_limit_is_unavailable_and_backs_the_poll_off(canned):
    gateway, client = canned
    assert "rate-limits.mdx" in answer_with(gateway, "rate-limit-429.docs.json")
    with pytest.raises(GatewayUnavailable) as caught:
        client.status(PATH_GID)
    assert (caught.value.http_status, caught.value.retry_after) == (429, 8.0)
    payment = stored(PATH_GID)
    polling.after_rate_limit(payment, NOW, caught.value.retry_after)
    assert payment.next_poll_at == NOW + timedelta(seconds=8)


# ---------------------------------------------------------------- action answers


@pytest.mark.parametrize(("name", "operation", "own_gid"), [
    ("capture-own-gid.uat-recording.json", "capture", "gl_999c0583327223ff"),
    ("reversal-own-gid.uat-recording.json", "auth_reversal", "gl_9a71608f976147d2"),
    ("refund-own-gid.python-sdk.json", "refund", "gl_1e27d51c-342d-40e7-b643-fe84604fbb1a"),
    ("refund-own-gid.php-sdk.json", "refund", "gl_14299664-72da-403a-881f-e0c49a337f32"),
    ("refund-own-gid.uat-recording.json", "refund", "gl_9a7154c7c401c151"),
])
def test_every_action_answer_carries_its_own_gid(canned, name, operation, own_gid):
    gateway, client = canned
    source = answer_with(gateway, name)
    assert any(repo in source for repo in ("api-docs-demo", "python-sdk", "php-sdk"))
    if operation == "capture":
        answer = client.capture(PATH_GID, "CAPTURE1")
        assert answer.data is not None and answer.data.model_extra["captureAmount"] == "1000.00"
    elif operation == "auth_reversal":
        answer = client.reverse(PATH_GID, "REVERSE1")
    else:
        answer = client.refund(PATH_GID, "REFUND1", "INR", "10.00", "U" * 16)
    assert answer.gid == own_gid != PATH_GID
    assert answer.original_gid == ""


def test_a_refund_answer_naming_its_original_payment(canned):
    gateway, client = canned
    assert "openapi.yaml" in answer_with(gateway, "refund-originalgid.openapi.json")
    answer = client.refund("gl_9c2645ed09edb22e", "REFUND1", "INR", "25.00", "U" * 16)
    assert answer.original_gid == "gl_9c2645ed09edb22e"
    assert answer.gid == "gl_refund_abcdef123"


# ---------------------------------------------------------------- tokens


def _signed(claims: dict, gateway_keys, header: dict) -> str:
    return sign_claims(claims, load_private_key(gateway_keys.private_pem),
                       {k: v for k, v in header.items() if k != "alg"})


def test_the_presigned_token_of_2025_names_the_order_and_the_transaction(gateway_keys):
    found = sample("presigned-token-2025.uat-recording.json")
    assert "api-docs-demo" in found.source
    claims = {**found.body, "iat": str(int(NOW.timestamp() * 1000))}
    token = _signed(claims, gateway_keys, found.extra["_token_header"])
    read = verify_callback_token(token, gateway_keys.public_pem, int(NOW.timestamp() * 1000))
    assert read.order_ids == ("gl_o-9a713b1e00fb3a3393b0gIaX2",)
    assert read.transaction_id == "gl_9a713b1e00fb3a33e5b3b0gIaX2"
    assert read.status is None and read.gid is None


def test_the_callback_token_of_2021_has_one_id_and_an_expiring_status_url(gateway_keys):
    found = sample("callback-token-2021.php-sdk.json")
    assert "payglocal-php-sdk" in found.source
    claims = {**found.body, "iat": str(int(NOW.timestamp() * 1000))}
    token = _signed(claims, gateway_keys, found.extra["_token_header"])
    read = verify_callback_token(token, gateway_keys.public_pem, int(NOW.timestamp() * 1000))
    assert read.order_ids == ("gl_a64a176f-9bac-4170-950d-4dc625a35ca9",)
    assert read.transaction_id == ""  # x-gl-gid is the same id in 2021
    assert read.status == "SENT_FOR_CAPTURE"
    assert found.extra["_statusUrl_token_payload"]["exp"] == 300000


# ---------------------------------------------------------------- reason codes


@pytest.mark.parametrize(("code", "message", "partial"), [
    ("GL-201-003", "", True), ("GL-201-004", "", True), ("GL-201-001", "Approved", False),
    ("", "Partially approved", True), ("GL-201-006", "CVV Failed", False)])
def test_a_partial_approval_in_either_published_table(code, message, partial):
    assert is_partial_approval(code, message) is partial


def initiate_body() -> dict:
    """An initiate the client accepts before sending."""
    return {"merchantTxnId": "ORDER12345", "merchantUniqueId": "UNIQUE0000000001",
            "captureTxn": False,
            "paymentData": {"totalAmount": str(Decimal("100.00")), "txnCurrency": "INR"},
            "merchantCallbackURL": "https://merchant.example/back"}
