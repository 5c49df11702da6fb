"""The API's webhooks out: the partner's endpoints listed, added (the URL checked, the secret
shown once), their secret rotated, disabled, and each one's delivery log with an event sent
again, through the same functions as the admins' page (``portal.domain.partner_events``)."""

from __future__ import annotations

from typing import Any

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.partner_webhook import PartnerDelivery, PartnerEndpoint
from portal.domain.api.scopes import Scope
from portal.domain.partner_events import endpoints
from portal.domain.partner_events.catalogue import delivery_words
from portal.features.api.more_schemas import (
    DeliveryList,
    DeliveryOut,
    WebhookEndpointBody,
    WebhookEndpointList,
    WebhookEndpointOut,
    WebhookSecretOut,
)
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.gateway.shapes import FieldError

RULE = "/webhook-endpoints"
ONE = RULE + "/<int:endpoint_id>"
#: The API's field of each field the endpoints' service names.
FIELDS = {"url": "url", "event_types": "eventTypes"}
SHOWN_ONCE = ("Keep this secret now: it is shown only in this answer. It signs every delivery "
              "(Standard Webhooks).")
NOT_KEPT = ("The secret was shown in the first answer only and is not kept for a repeat; "
            "rotate it to get a new one.")


def _endpoint_out(endpoint: PartnerEndpoint) -> WebhookEndpointOut:
    return WebhookEndpointOut(id=endpoint.id, url=endpoint.url, description=endpoint.description,
                              eventTypes=list(endpoint.event_types or []),
                              active=endpoint.active, createdAt=endpoint.created_at)


def _delivery_out(delivery: PartnerDelivery) -> DeliveryOut:
    return DeliveryOut(id=delivery.id, eventId=delivery.event.event_id,
                       eventType=delivery.event.type, state=delivery.state,
                       stateLabel=delivery_words(delivery.state, delivery.attempts),
                       attempts=delivery.attempts, lastAnswer=delivery.last_error or None,
                       deliveredAt=delivery.delivered_at, createdAt=delivery.created_at)


def _issued(issued: endpoints.IssuedSecret, status: int = 200) -> Answer:
    """The endpoint with its new secret; what a repeat of the request gets has no secret."""
    shown = _endpoint_out(issued.endpoint)
    return Answer(WebhookSecretOut(endpoint=shown, secret=issued.secret, message=SHOWN_ONCE),
                  status, kept=WebhookSecretOut(endpoint=shown, secret=None, message=NOT_KEPT))


def _found(endpoint_id: int, *, active: bool = False) -> PartnerEndpoint:
    endpoint = db.session.get(PartnerEndpoint, endpoint_id)
    if endpoint is None:
        raise Problem(404, f"There is no webhook endpoint {endpoint_id}.")
    if active and not endpoint.active:
        raise Problem(409, f"Webhook endpoint {endpoint_id} is disabled: nothing is sent there.")
    return endpoint


@operation(RULE, "GET", scope=Scope.WEBHOOKS, answer=WebhookEndpointList,
           summary="Every webhook endpoint, newest first (never its secret)")
def list_webhook_endpoints(call: Call) -> Answer:
    """The endpoints, as the admins' page lists them."""
    return Answer(WebhookEndpointList(data=[_endpoint_out(e) for e in endpoints.every_endpoint()]))


@operation(RULE, "POST", scope=Scope.WEBHOOKS, status=201, answer=WebhookSecretOut,
           body=WebhookEndpointBody,
           summary="Add a webhook endpoint: its address checked public, its secret shown once")
def create_webhook_endpoint(call: Call) -> Answer:
    """Add an endpoint as the admins' page does; a refused address or no event is a 422 at
    its field."""
    data: dict[str, Any] = call.body
    try:
        issued = endpoints.add_endpoint(
            data["url"], data.get("description") or "", list(data["eventTypes"]), None,
            call.actor, current_settings().website_check_allow_loopback)
    except endpoints.EndpointRefused as refused:
        raise Problem(422, refused.message,
                      [FieldError(FIELDS[refused.field], refused.message)]) from None
    return _issued(issued, 201)


@operation(ONE + "/rotate", "POST", scope=Scope.WEBHOOKS, answer=WebhookSecretOut,
           summary="A new signing secret, shown once; the previous one still signs for a day")
def rotate_webhook_secret(call: Call, endpoint_id: int) -> Answer:
    """Rotate an active endpoint's secret, as the admins' page does."""
    return _issued(endpoints.rotate_secret(_found(endpoint_id, active=True), call.actor))


@operation(ONE + "/disable", "POST", scope=Scope.WEBHOOKS, answer=WebhookEndpointOut,
           summary="Stop sending to an endpoint (what is queued for it fails)")
def disable_webhook_endpoint(call: Call, endpoint_id: int) -> Answer:
    """Disable an endpoint; 409 when it was disabled already."""
    endpoint = _found(endpoint_id)
    if not endpoints.disable(endpoint, call.actor):
        raise Problem(409, f"Webhook endpoint {endpoint_id} was disabled already.")
    return Answer(_endpoint_out(endpoint))


@operation(ONE + "/deliveries", "GET", scope=Scope.WEBHOOKS, answer=DeliveryList,
           summary="The endpoint's latest deliveries, newest first, and how each went")
def list_webhook_deliveries(call: Call, endpoint_id: int) -> Answer:
    """The endpoint's delivery log, as its page shows it."""
    return Answer(DeliveryList(data=[_delivery_out(d)
                                     for d in endpoints.delivery_log(_found(endpoint_id))]))


@operation(ONE + "/deliveries/<int:delivery_id>/send-again", "POST", scope=Scope.WEBHOOKS,
           status=202, answer=DeliveryOut,
           summary="Send a delivery's event again: a new delivery with the same webhook-id")
def send_webhook_again(call: Call, endpoint_id: int, delivery_id: int) -> Answer:
    """Queue the event again for an active endpoint, as the delivery log's button does; the
    answer is the new delivery."""
    endpoint = _found(endpoint_id, active=True)
    delivery = db.session.get(PartnerDelivery, delivery_id)
    if delivery is None or delivery.endpoint_id != endpoint.id:
        raise Problem(404, f"Webhook endpoint {endpoint_id} has no delivery {delivery_id}.")
    endpoints.send_again(delivery, call.actor)
    return Answer(_delivery_out(endpoints.delivery_log(endpoint)[0]), 202)
