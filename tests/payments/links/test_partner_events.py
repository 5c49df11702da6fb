"""A customer paying through a payment link tells partners' software twice: the payment is
authorised, and the link is paid (once, whatever reads follow)."""

from __future__ import annotations

from portal.domain.partner_events.catalogue import EventType
from tests.payments.links.support import link_row, press_continue, sent_link
from tests.payments.support import pay, poll
from tests.support.partner_webhooks import endpoint_for, stored_events


def test_a_link_paid_is_told_once(app, browser, merchant_id, credentials, mail_sink):
    endpoint_for(app, "http://127.0.0.1:9/hooks")
    payment_id, link = sent_link(browser, merchant_id, mail_sink)
    customer = app.test_client()
    returned = pay(press_continue(customer, link).headers["Location"])
    customer.post(returned.path, data={"x-gl-token": returned.token})
    poll(app)

    events = stored_events(app)
    assert [e.type for e in events] == [EventType.PAYMENT_AUTHORIZED.value,
                                        EventType.PAYMENT_LINK_PAID.value]
    assert events[1].payload["data"]["paymentId"] == payment_id
    assert events[1].payload["data"]["paymentLinkId"] == link_row(app, payment_id).id
