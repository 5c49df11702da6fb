"""The admins' pages of the webhooks out: the endpoints (add one, its secret shown once; rotate
its secret, the old one signing a day more; disable it) and each endpoint's delivery log, where
an event can be sent again (the same webhook-id, a new delivery)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core import clock
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.partner_webhook import PartnerDelivery, PartnerEndpoint
from portal.core.models.user import Role
from portal.domain.partner_events import endpoints
from portal.domain.partner_events.catalogue import delivery_words, words_of
from portal.domain.partner_events.schedule import RETRY_SCHEDULE, in_words
from portal.features.partner_webhooks.forms import ButtonForm, NewEndpointForm
from portal.web.auth.access import current_actor, roles_required

bp = Blueprint("partner_webhooks", __name__, url_prefix="/admin/webhooks-out")


@bp.get("/")
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """Every endpoint, and the form for a new one."""
    return page(NewEndpointForm())


@bp.post("/")
@roles_required(Role.ADMIN)
def create() -> ResponseReturnValue:
    """Add an endpoint and show its secret this once."""
    form = NewEndpointForm()
    if form.validate_on_submit():
        try:
            issued = endpoints.add_endpoint(
                form.url.data, form.description.data or "", form.event_types.data,
                current_user.id, current_actor(), current_settings().website_check_allow_loopback)
        except endpoints.EndpointRefused as exc:
            db.session.rollback()
            getattr(form, exc.field).errors = [exc.message]
        else:
            db.session.commit()
            return page(NewEndpointForm(formdata=None), issued=issued)
    return page(form), 400


@bp.post("/<int:endpoint_id>/rotate")
@roles_required(Role.ADMIN)
def rotate(endpoint_id: int) -> ResponseReturnValue:
    """A new secret, shown this once; the old one still signs for a day."""
    endpoint = db.session.get(PartnerEndpoint, endpoint_id) or abort(404)
    if not ButtonForm().validate_on_submit() or not endpoint.active:
        flash("Nothing was changed: reload the page and try again.", "info")
        return redirect(url_for(".index"))
    issued = endpoints.rotate_secret(endpoint, current_actor())
    db.session.commit()
    return page(NewEndpointForm(formdata=None), issued=issued, rotated=True)


@bp.post("/<int:endpoint_id>/disable")
@roles_required(Role.ADMIN)
def disable(endpoint_id: int) -> ResponseReturnValue:
    """Stop sending to an endpoint."""
    endpoint = db.session.get(PartnerEndpoint, endpoint_id) or abort(404)
    if ButtonForm().validate_on_submit() and endpoints.disable(endpoint, current_actor()):
        db.session.commit()
        flash(f"Nothing more is sent to {endpoint.url}.", "success")
    else:
        flash(f"{endpoint.url} was disabled already.", "info")
    return redirect(url_for(".index"))


@bp.get("/<int:endpoint_id>/deliveries")
@roles_required(Role.ADMIN)
def deliveries(endpoint_id: int) -> ResponseReturnValue:
    """The endpoint's latest deliveries and how each went."""
    endpoint = db.session.get(PartnerEndpoint, endpoint_id) or abort(404)
    return render_template("partner_webhooks/deliveries.html", endpoint=endpoint,
                           deliveries=endpoints.delivery_log(endpoint), words_of=words_of,
                           delivery_words=delivery_words,
                           button=ButtonForm())


@bp.post("/<int:endpoint_id>/deliveries/<int:delivery_id>/send-again")
@roles_required(Role.ADMIN)
def send_again(endpoint_id: int, delivery_id: int) -> ResponseReturnValue:
    """Send a delivery's event again: a new delivery, the same webhook-id."""
    delivery = db.session.get(PartnerDelivery, delivery_id)
    if delivery is None or delivery.endpoint_id != endpoint_id:
        abort(404)
    endpoint = db.session.get(PartnerEndpoint, endpoint_id)
    if ButtonForm().validate_on_submit() and endpoint is not None and endpoint.active:
        endpoints.send_again(delivery, current_actor())
        db.session.commit()
        flash(f"“{words_of(delivery.event.type)}” will be sent again within a few seconds, "
              f"with the same webhook-id {delivery.event.event_id}.", "success")
    else:
        flash("Nothing was sent again: the endpoint is disabled, or the page was old.", "info")
    return redirect(url_for(".deliveries", endpoint_id=endpoint_id))


def page(form: NewEndpointForm, issued: endpoints.IssuedSecret | None = None,
         rotated: bool = False) -> str:
    """The endpoints page; ``issued``: the secret just made, shown this once."""
    return render_template("partner_webhooks/index.html", form=form,
                           endpoints=endpoints.every_endpoint(), issued=issued, rotated=rotated,
                           words_of=words_of, button=ButtonForm(), now=clock.utcnow(),
                           schedule=[in_words(wait) for wait in RETRY_SCHEDULE])
