"""Continue on a phone: the merchant's page shows a QR code of a hand-over link or texts it to
the phone on file; the phone opens it once; the computer's page follows along.

segno draws the code as an SVG data URI, as for two-step enrolment: the CSP allows ``data:``
images and no inline styles.

Imported by ``portal.app.blueprints`` so its routes join the verification blueprint.
"""

from __future__ import annotations

import segno
from flask import jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from portal.core import clock
from portal.core.config import current_settings
from portal.core.mail.urls import absolute_url
from portal.core.models.merchant import Merchant
from portal.core.models.verification import MerchantLink
from portal.domain.branding import service as branding
from portal.domain.handover import service as handovers
from portal.domain.handover import texting
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding.drafts import get_merchant
from portal.domain.onboarding.locks import verification_complete
from portal.features.verification import phone_words, words
from portal.features.verification.merchant_routes import (
    language_url,
    opened,
    partner_name,
    refused,
    speak,
)
from portal.features.verification.routes import bp
from portal.web.auth.access import current_actor, public


@bp.get("/verify/<int:merchant_id>/phone")
@public
def phone_page(merchant_id: int) -> ResponseReturnValue:
    """The QR code of the link's hand-over, "Send to my phone", and what the phone did."""
    merchant, link = opened(merchant_id, request.args.get("token", ""))
    return render_phone(merchant, link, sent=request.args.get("sent") == "1")


@bp.post("/verify/<int:merchant_id>/phone")
@public
def phone_start(merchant_id: int) -> ResponseReturnValue:
    """A new code to scan (the link's previous ones stop opening)."""
    token = request.args.get("token", "")
    _merchant, link = opened(merchant_id, token)
    handovers.start(current_settings().secret_key, link, handovers.QR,
                    current_settings().handover_minutes, current_actor(links.MERCHANT))
    return redirect(url_for("verification.phone_page", merchant_id=merchant_id, token=token), 303)


@bp.post("/verify/<int:merchant_id>/phone/sms")
@public
def phone_sms(merchant_id: int) -> ResponseReturnValue:
    """"Send to my phone": a new hand-over texted to the signatory's phone on file; nothing
    typed on the page is read."""
    token = request.args.get("token", "")
    merchant, link = opened(merchant_id, token)
    texted = texting.text_link(current_settings(), merchant, link, partner_name(), handover_url,
                               current_actor(links.MERCHANT))
    if not texted.sent:
        return render_phone(merchant, link, refusal=texted.refusal), 429
    return redirect(url_for("verification.phone_page", merchant_id=merchant_id, token=token,
                            sent="1"), 303)


@bp.get("/verify/<int:merchant_id>/phone/status")
@public
def phone_status(merchant_id: int) -> ResponseReturnValue:
    """Where the hand-over stands, for the computer's page to follow (``state``, ``message``
    and, once finished, the outcome's ``next``)."""
    merchant, link = opened(merchant_id, request.args.get("token", ""))
    state, _handover = handovers.state_of(link, clock.utcnow())
    answer = {"state": state, "message": phone_words.state_words()[state], "next": ""}
    if state == handovers.FINISHED:
        answer["next"] = " ".join(words.for_merchant(partner_name()).finished(
            merchant.status or ""))
    return jsonify(answer)


@bp.get("/verify/<int:merchant_id>/handover")
@public
def phone_open(merchant_id: int) -> ResponseReturnValue:
    """The phone opens the code's link: once, within its minutes; it then goes on with the
    merchant's own link. A used, expired or replaced code says so, naming no merchant, in the
    language of the link it was made for (a forged one, in the browser's)."""
    settings = current_settings()
    result = handovers.open_once(settings.secret_key, merchant_id,
                                 request.args.get("token", ""), current_actor(links.MERCHANT))
    if result.link is None:
        speak(links.LinkCheck(None, 410, result.reason, over=result.continues),
              get_merchant(merchant_id) if result.continues else None)
        return refused(links.LinkCheck(None, 410, result.reason))
    return redirect(url_for("verification.merchant_page", merchant_id=merchant_id,
                            token=links.token_of(settings.secret_key, result.link)), 303)


def handover_url(token: str) -> str:
    """The hand-over's address on PORTAL_URL (never the request's Host header)."""
    return absolute_url("verification.phone_open", merchant_id=request.view_args["merchant_id"],
                        token=token)


def render_phone(merchant: Merchant, link: MerchantLink, sent: bool = False,
                 refusal: str = "") -> str:
    """The phone page: the newest hand-over's code while it waits, else a button for one."""
    settings = current_settings()
    token = request.args.get("token", "")
    state, handover = handovers.state_of(link, clock.utcnow())
    url = (handover_url(handovers.token_of(settings.secret_key, handover))
           if handover is not None and state == handovers.WAITING else "")
    phone = texting.phone_on_file(merchant)
    return render_template(
        "verification/phone.html", merchant=merchant, state=state, handover=handover, url=url,
        qr=segno.make(url, error="m").svg_data_uri(scale=5, border=4) if url else "",
        phone_shown=phone_words.number_shown(phone) if phone else "", sent=sent, refusal=refusal,
        done=verification_complete(merchant), state_words=phone_words.state_words(),
        lost=str(phone_words.LOST), minutes=settings.handover_minutes,
        brand=branding.current(settings), partner=partner_name(),
        start_url=url_for("verification.phone_start", merchant_id=merchant.id, token=token),
        sms_url=url_for("verification.phone_sms", merchant_id=merchant.id, token=token),
        status_url=url_for("verification.phone_status", merchant_id=merchant.id, token=token),
        back_url=url_for("verification.merchant_page", merchant_id=merchant.id, token=token),
        language_url=language_url(merchant.id, token, then="phone"))
