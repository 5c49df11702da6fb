"""What partners' software is told of a payment, through the sandbox: its authorisation, its
capture (once, however many reads report it), each refund, and a release; each payload with
the API's ids and amounts and no card number."""

from __future__ import annotations

import json

from portal.domain.partner_events.catalogue import EventType
from tests.payments.support import APPROVING_CARD, act, authorised_payment, poll
from tests.support.partner_webhooks import endpoint_for, stored_deliveries, stored_events


def told(app) -> list[str]:
    """The types of the events written, oldest first."""
    return [event.type for event in stored_events(app)]


def test_a_hold_captured_and_refunded_twice_tells_each_once(app, browser, authorised):
    endpoint_for(app, "http://127.0.0.1:9/hooks")  # subscribed after the authorisation
    act(browser, authorised, "capture")
    poll(app)  # reads SENT_FOR_CAPTURE or CAPTURED again: the capture was told already
    act(browser, authorised, "refund", amount="500")
    act(browser, authorised, "refund", amount="200")

    assert told(app) == [EventType.PAYMENT_AUTHORIZED.value, EventType.PAYMENT_CAPTURED.value,
                         EventType.PAYMENT_REFUNDED.value, EventType.PAYMENT_REFUNDED.value]
    events = stored_events(app)
    assert events[1].payload["data"] | {"status": ""} == {
        "paymentId": authorised, "merchantId": events[1].payload["data"]["merchantId"],
        "merchantTxnId": events[1].payload["data"]["merchantTxnId"], "status": "",
        "amount": "1500.00", "currency": "INR", "capturedAmount": "1500.00"}
    assert [e.payload["data"]["refund"]["amount"] for e in events[2:]] == ["500", "200"]
    assert APPROVING_CARD not in json.dumps([e.payload for e in events])
    assert len(stored_deliveries(app)) == 3  # the authorisation came before the endpoint


def test_a_hold_released_tells_it(app, browser, merchant_id, credentials):
    endpoint_for(app, "http://127.0.0.1:9/hooks")
    payment_id, _ = authorised_payment(browser, merchant_id)
    act(browser, payment_id, "reverse")
    poll(app)

    assert told(app) == [EventType.PAYMENT_AUTHORIZED.value, EventType.PAYMENT_RELEASED.value]
    assert [d.event.payload["data"]["paymentId"] for d in stored_deliveries(app)] == [
        payment_id, payment_id]
