"""End to end against the sandbox on loopback: initiate, the hosted page, callback, capture,
refunds, reversal, declines, hold expiry and JWE bodies."""

from __future__ import annotations

import pytest

from portal.gateway.errors import Conflict, GatewayUnavailable, NotFound, ValidationFailed
from portal.gateway.payments.words import PaymentStatus
from tests.sandbox.payments.support import (
    CALLBACK_URL,
    HOLD_HOURS,
    OTHER_KID,
    OTHER_MID,
    claims_of,
    initiate_body,
    open_page,
    pay_by_card,
    returned,
    submit,
)

APPROVED_CARD = "4111111111111111"


def authorized(client, http, sandbox, gateway_keys, **changes):
    """Initiate and pay with an approving card; return the initiate answer."""
    started = client.initiate(initiate_body(**changes))
    back = returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    claims = claims_of(back.token, gateway_keys.public_pem, sandbox.clock.now_ms())
    assert claims["status"] == PaymentStatus.AUTHORIZED
    return started


def test_journey_authorize_capture_refund(client, http, sandbox, gateway_keys):
    started = client.initiate(initiate_body())
    assert started.gid.startswith("gl_o-")
    assert started.status == PaymentStatus.INPROGRESS
    assert started.reasonCode == "200"
    assert started.data.merchantTxnId == "ORDER12345"
    assert started.data.redirectUrl.startswith(sandbox.url + "/gl/payflow-ui/?x-gl-token=")
    assert started.data.statusUrl.startswith(
        f"{sandbox.url}/gl/v1/payments/{started.gid}/status?x-gl-token=")
    assert client.status(started.gid).data.status == PaymentStatus.INPROGRESS

    back = returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    assert back.action == CALLBACK_URL
    assert back.page.find("button", string="Return to the merchant") is not None
    claims = claims_of(back.token, gateway_keys.public_pem, sandbox.clock.now_ms())
    assert claims["gid"] == claims["x-gl-gid"] == started.gid
    assert claims["status"] == "AUTHORIZED"
    assert claims["merchantUniqueId"] == "UNIQUE0000000001"

    status = client.status(started.gid).data
    assert (status.status, status.Amount, status.Currency) == ("AUTHORIZED", "100.00", "USD")
    assert status.reasonCode == "GL-201-001"

    captured = client.capture(started.gid, "CAPTURE1", amount="80.00")
    assert captured.status == PaymentStatus.SENT_FOR_CAPTURE
    with pytest.raises(Conflict):
        client.capture(started.gid, "CAPTURE2")

    first = client.refund(started.gid, "REFUND1", "USD", amount="30.00")
    assert (first.status, first.reasonCode) == (PaymentStatus.SENT_FOR_REFUND, "GL-201-001")
    assert (first.data.merchantTxnId, first.data.refundAmount, first.data.refundCurrency) == (
        "REFUND1", "30.00", "USD")
    client.refund(started.gid, "REFUND2", "USD", amount="50.00")
    with pytest.raises(Conflict) as over:
        client.refund(started.gid, "REFUND3", "USD", amount="0.01")
    assert (over.value.http_status, over.value.reason_code) == (409, "GL-400-006")
    assert over.value.display_message == "At most 0.00 is left to refund"
    final = client.status(started.gid).data
    assert final.status == "SENT_FOR_REFUND"
    assert "capturedAmount" not in client.status(started.gid).model_dump(exclude_none=True)["data"]


def test_reversal_releases_the_hold(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    reversed_ = client.reverse(started.gid, "REVERSE1")
    assert reversed_.status == reversed_.data.status == PaymentStatus.REVERSED
    with pytest.raises(Conflict):
        client.capture(started.gid, "CAPTURE1")
    with pytest.raises(Conflict):
        client.reverse(started.gid, "REVERSE2")


def test_reversal_after_capture_is_refused(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    client.capture(started.gid, "CAPTURE1")
    with pytest.raises(Conflict):
        client.reverse(started.gid, "REVERSE1")


def test_reversal_before_authorisation_is_refused(client):
    started = client.initiate(initiate_body())
    with pytest.raises(Conflict):
        client.reverse(started.gid, "REVERSE1")


def test_refund_before_capture_is_refused(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    with pytest.raises(Conflict):
        client.refund(started.gid, "REFUND1", "USD", amount="1.00")


def test_full_refund_takes_what_is_left(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    client.capture(started.gid, "CAPTURE1")
    client.refund(started.gid, "REFUND1", "USD", amount="40.00")
    rest = client.refund(started.gid, "REFUND2", "USD")
    assert rest.data.refundAmount == "60.00"
    with pytest.raises(Conflict):
        client.refund(started.gid, "REFUND3", "USD")


def test_refund_merchant_txn_id_is_used_once(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    client.capture(started.gid, "CAPTURE1")
    client.refund(started.gid, "REFUND1", "USD", amount="10.00")
    with pytest.raises(Conflict):
        client.refund(started.gid, "REFUND1", "USD", amount="10.00")


def test_refund_in_another_currency_is_refused(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    client.capture(started.gid, "CAPTURE1")
    with pytest.raises(ValidationFailed) as refused:
        client.refund(started.gid, "REFUND1", "EUR", amount="10.00")
    assert [e.field for e in refused.value.field_errors] == ["paymentData.txnCurrency"]


def test_partial_capture_above_the_authorised_amount_is_refused(client, http, sandbox,
                                                                gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    with pytest.raises(ValidationFailed) as refused:
        client.capture(started.gid, "CAPTURE1", amount="100.01")
    assert refused.value.reason_code == "GL-400-006"
    assert [e.field for e in refused.value.field_errors] == ["paymentData.totalAmount"]
    assert client.capture(started.gid, "CAPTURE1", amount="100.00").data.Amount == "100.00"


def test_full_capture_with_another_amount_is_refused(client, http, sandbox, gateway_keys, signer):
    started = authorized(client, http, sandbox, gateway_keys)
    response = signer.post({"merchantTxnId": "CAPTURE1", "captureType": "F",
                            "paymentData": {"totalAmount": "50.00"}},
                           path=f"/gl/v1/payments/{started.gid}/capture")
    assert response.status_code == 400
    assert response.json()["reasonCode"] == "GL-400-006"
    assert response.json()["errorDetails"][0]["field"] == "paymentData.totalAmount"


def test_capture_before_authorisation_is_refused(client):
    started = client.initiate(initiate_body())
    with pytest.raises(Conflict):
        client.capture(started.gid, "CAPTURE1")


@pytest.mark.parametrize(
    ("number", "expiry", "reason"),
    [
        ("4000000000000002", "12/39", "GL-201-015"),
        ("4000000000009995", "12/39", "GL-201-009"),
        (APPROVED_CARD, "01/20", "GL-201-007"),
        ("4242424242424242", "12/39", "GL-201-012"),
    ],
    ids=["issuer-decline", "insufficient-funds", "expired-card", "card-not-allowed"],
)
def test_declined_card(client, http, sandbox, gateway_keys, number, expiry, reason):
    started = client.initiate(initiate_body())
    back = returned(pay_by_card(http, started.data.redirectUrl, number, expiry=expiry))
    claims = claims_of(back.token, gateway_keys.public_pem, sandbox.clock.now_ms())
    assert claims["status"] == "ISSUER_DECLINE"
    status = client.status(started.gid).data
    assert (status.status, status.reasonCode) == ("ISSUER_DECLINE", reason)
    with pytest.raises(Conflict):
        client.capture(started.gid, "CAPTURE1")


def test_mastercard_test_card_authorises(client, http):
    started = client.initiate(initiate_body())
    back = returned(pay_by_card(http, started.data.redirectUrl, "5132552222223470"))
    assert back.status_code == 200
    assert client.status(started.gid).data.CardBrand == "MASTERCARD"


def test_non_luhn_number_is_a_form_error(client, http):
    started = client.initiate(initiate_body())
    response = pay_by_card(http, started.data.redirectUrl, "4111111111111112")
    assert response.status_code == 400
    assert "Enter a valid card number" in response.text
    assert "4111111111111112" not in response.text
    assert client.status(started.gid).data.status == PaymentStatus.INPROGRESS


def test_paid_page_cannot_be_paid_again(client, http):
    started = client.initiate(initiate_body())
    pay_by_card(http, started.data.redirectUrl, "4000000000000002")
    again = pay_by_card_again(http, started.data.redirectUrl)
    assert again.status_code == 409
    assert client.status(started.gid).data.reasonCode == "GL-201-015"


def pay_by_card_again(http, redirect_url):
    """Replay the card form with the page's token after the payment was decided."""
    token = redirect_url.split("x-gl-token=", 1)[1]
    return http.post(redirect_url.split("?", 1)[0],
                     data={"x-gl-token": token, "method": "card", "number": APPROVED_CARD,
                           "expiry": "12/39", "cvv": "123", "name": "A"}, timeout=5)


def test_hosted_page_shows_amount_and_labelled_card_form(client, http):
    started = client.initiate(initiate_body())
    page = open_page(http, started.data.redirectUrl)
    assert "100.00 USD" in page.get_text()
    for field in ("number", "expiry", "cvv", "name"):
        assert page.find("label", attrs={"for": field}) is not None
        assert page.find("input", id=field) is not None
    assert page.find("button", string="Apple Pay") is not None
    assert not page.find_all(["link", "img"]) and not page.find_all("script", src=True)


def test_apple_pay_authorises_international_payments(client, http):
    started = client.initiate(initiate_body())
    page = open_page(http, started.data.redirectUrl)
    form = page.find("button", string="Apple Pay").find_parent("form")
    back = returned(submit(http, started.data.redirectUrl, form, {}))
    assert back.status_code == 200
    assert client.status(started.gid).data.paymentMethod == "APPLE_PAY"


def test_no_apple_pay_for_inr(client, http):
    started = client.initiate(initiate_body(paymentData={"totalAmount": "500",
                                                         "txnCurrency": "INR"}))
    page = open_page(http, started.data.redirectUrl)
    assert page.find("button", string="Apple Pay") is None


def test_expired_hold_can_no_longer_be_captured(client, http, sandbox, gateway_keys):
    started = authorized(client, http, sandbox, gateway_keys)
    sandbox.clock.advance(HOLD_HOURS * 3600 - 60)
    assert client.status(started.gid).data.status == PaymentStatus.AUTHORIZED
    sandbox.clock.advance(120)
    assert client.status(started.gid).data.status == PaymentStatus.EXPIRED
    with pytest.raises(Conflict):
        client.capture(started.gid, "CAPTURE1")


def test_jwe_mode_end_to_end(make_client, http, sandbox, gateway_keys):
    client = make_client(encrypt=True)
    started = client.initiate(initiate_body())
    returned(pay_by_card(http, started.data.redirectUrl, APPROVED_CARD))
    client.capture(started.gid, "CAPTURE1", amount="10.00")
    refund = client.refund(started.gid, "REFUND1", "USD", amount="10.00")
    assert refund.data.refundAmount == "10.00"
    assert client.status(started.gid).data.status == PaymentStatus.SENT_FOR_REFUND


def test_status_url_works_without_a_jws(client, http, sandbox, gateway_keys):
    started = client.initiate(initiate_body())
    raw = http.get(started.data.statusUrl, timeout=5)
    assert raw.status_code == 200
    assert "x-gl-token-external" not in raw.request.headers
    assert raw.json()["data"]["status"] == "INPROGRESS"
    assert client.status_by_url(started.data.statusUrl).data.gid == started.gid


def test_status_url_of_another_gateway_is_refused(client):
    with pytest.raises(ValueError, match="does not point at this gateway"):
        client.status_by_url("http://elsewhere.example/gl/v1/payments/x/status?x-gl-token=t")


def test_payment_of_another_merchant_is_not_found(client, make_client, other_merchant_keys):
    started = client.initiate(initiate_body())
    other = make_client(mid=OTHER_MID, kid=OTHER_KID, private_pem=other_merchant_keys.private_pem)
    with pytest.raises(NotFound):
        other.status(started.gid)
    with pytest.raises(NotFound):
        other.capture(started.gid, "CAPTURE1")


def test_unknown_payment_is_not_found(client):
    with pytest.raises(NotFound):
        client.status("gl_o-000000000000000000000000")


def test_lost_post_is_outcome_unknown(make_client, dropping_url):
    client = make_client(base_url=dropping_url)
    with pytest.raises(GatewayUnavailable) as lost:
        client.initiate(initiate_body())
    assert lost.value.outcome_unknown
