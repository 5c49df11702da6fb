"""The sub-merchant's own pages, opened from their link: verification, its device check, and
a new link asked for when it is over.

Imported by ``portal.app.blueprints`` so its routes join the verification blueprint.
"""

from __future__ import annotations

from flask import (
    Response,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.models.merchant import Merchant
from portal.core.models.verification import MerchantLink
from portal.domain.branding import service as branding
from portal.domain.handover import service as handovers
from portal.domain.merchant_mail import renewal as renewal_mail
from portal.domain.onboarding import device_checks, merchant_language
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding.drafts import get_merchant
from portal.domain.onboarding.locks import verification_complete
from portal.domain.onboarding.verification_link import MERCHANT_LINK
from portal.domain.requirements.checklist import merchant_asks
from portal.domain.requirements.words import in_words
from portal.features.verification import camera_words, service, words
from portal.features.verification.routes import bp, embedded
from portal.web import page_language
from portal.web.auth.access import current_actor, public


@bp.get("/verify/<int:merchant_id>")
@public
def merchant_page(merchant_id: int) -> ResponseReturnValue:
    """The sub-merchant's own verification page, and nothing else of the portal; an in-app
    browser is told to open it in Chrome or Safari, and the opening is kept for ops.

    The token travels in the query (``?token=``), which the log redaction masks.
    """
    token = request.args.get("token", "")
    merchant, link = opened(merchant_id, token)
    links.mark_opened(link)
    user_agent = request.headers.get("User-Agent", "")
    in_app = device_checks.in_app_browser(user_agent)
    device_checks.report(link, user_agent, "in_app_browser" if in_app else device_checks.OPENED,
                         current_actor(links.MERCHANT))
    callback = url_for("verification.merchant_page", merchant_id=merchant.id, token=token,
                       _external=True)
    confirm_url = url_for("verification.merchant_confirm", merchant_id=merchant.id, token=token)
    return embedded("verification/merchant.html", merchant, callback, confirm_url,
                    MERCHANT_LINK, words.for_merchant(partner_name()),
                    current_actor(links.MERCHANT), in_app=in_app, own_url=callback,
                    check_url=url_for("verification.merchant_check", merchant_id=merchant.id,
                                      token=token),
                    camera=camera_words.for_merchant(in_app),
                    phone_url=url_for("verification.phone_start", merchant_id=merchant.id,
                                      token=token),
                    language_url=language_url(merchant.id, token),
                    asks=[(row.key, in_words(row)) for row in merchant_asks(merchant)])


@bp.post("/verify/<int:merchant_id>/confirm")
@public
def merchant_confirm(merchant_id: int) -> ResponseReturnValue:
    """The merchant's page reported completion: read the status server-side; once it says
    verification is done, a hand-over opened on this link is finished."""
    merchant, link = opened(merchant_id, request.args.get("token", ""))
    answer = service.confirm(current_onboarding_client(), merchant,
                             words.for_merchant(partner_name()), current_actor(links.MERCHANT))
    if answer["confirmed"] and verification_complete(merchant):
        handovers.finish(link, current_actor(links.MERCHANT))  # the computer's page follows
    return jsonify(answer)


@bp.post("/verify/<int:merchant_id>/check")
@public
def merchant_check(merchant_id: int) -> ResponseReturnValue:
    """The page's device check reports what it found (a form's ``found``: a check's key);
    CSRF-checked, kept for the link the token opens."""
    _merchant, link = opened(merchant_id, request.args.get("token", ""))
    found = request.form.get("found")
    kept = found is not None and device_checks.report(
        link, request.headers.get("User-Agent", ""), found, current_actor(links.MERCHANT))
    return jsonify({"kept": bool(kept)}), 200 if kept else 400


def partner_name() -> str:
    """The partner's name as its merchants read it (the branding's, PARTNER_NAME by default)."""
    return branding.current(current_settings()).display_name


@bp.post("/verify/<int:merchant_id>/renew")
@public
def merchant_renew(merchant_id: int) -> ResponseReturnValue:
    """"Send me a new link" on an expired or withdrawn link's page: emailed to the signatory
    on file (nothing typed on the page), rate-limited; the owner gets a notice."""
    token = request.args.get("token", "")
    checked = links.check(current_settings().secret_key, merchant_id, token)
    merchant = get_merchant(merchant_id)
    speak(checked, merchant)
    if checked.link is not None:
        return redirect(url_for("verification.merchant_page", merchant_id=merchant_id,
                                token=token), 303)
    if checked.over is None or merchant is None:
        abort(refused(checked))
    if links.refusal(merchant):
        abort(over_page(merchant, checked, token))
    renewal = renewal_mail.renew(current_settings(), merchant)
    if not renewal.sent:
        return over_page(merchant, checked, token, renewal.refusal, 429)
    return render_template("verification/link_renewed.html", shown=renewal.shown,
                           brand=branding.current(current_settings()),
                           language_url=language_url(merchant.id, token))


@bp.post("/verify/<int:merchant_id>/language")
@public
def merchant_language_pick(merchant_id: int) -> ResponseReturnValue:
    """The page's language switch: the merchant's pick is kept with the link (live or over),
    then the page again in it (the phone page when ``then=phone``). CSRF-checked like every
    form."""
    token = request.args.get("token", "")
    checked = links.check(current_settings().secret_key, merchant_id, token)
    link = checked.link or checked.over
    if link is None:
        abort(refused(checked))
    merchant_language.pick(link, request.form.get("language", ""), current_actor(links.MERCHANT))
    page = "verification.phone_page" if request.args.get("then") == "phone" else \
        "verification.merchant_page"
    return redirect(url_for(page, merchant_id=merchant_id, token=token), 303)


def language_url(merchant_id: int, token: str, then: str | None = None) -> str:
    """Where the merchant's page posts a language picked on it (``then``: "phone" to come back
    to the phone page)."""
    return url_for("verification.merchant_language_pick", merchant_id=merchant_id, token=token,
                   then=then)


def speak(checked: links.LinkCheck, merchant: Merchant | None) -> None:
    """Draw the page in the language of the link checked (its pick, else the merchant's); a
    link that opens no merchant, in the browser's."""
    link = checked.link or checked.over
    if link is None or merchant is None:
        page_language.use_browsers()
    else:
        page_language.use(merchant_language.of_link(link, merchant))


def opened(merchant_id: int, token: str) -> tuple[Merchant, MerchantLink]:
    """The merchant and live link a token opens; else a refusal page (403) with no data, or
    for a genuine link that is over (410) the page that offers a new one."""
    checked = links.check(current_settings().secret_key, merchant_id, token)
    merchant = get_merchant(merchant_id) if checked.link or checked.over else None
    speak(checked, merchant)
    if checked.over is not None and merchant is not None:
        abort(over_page(merchant, checked, token))
    if checked.link is None or merchant is None:
        abort(refused(checked))
    return merchant, checked.link


def refused(checked: links.LinkCheck) -> Response:
    """The page of a link that opens nothing, naming no merchant."""
    return make_response(render_template(
        "verification/refused.html", status=checked.status,
        reason=checked.reason or links.NOT_VALID,
        brand=branding.current(current_settings())), checked.status)


def over_page(merchant: Merchant, checked: links.LinkCheck, token: str, refusal: str = "",
              status: int = 410) -> Response:
    """An expired or withdrawn link's page: "Send me a new link", or, once the merchant has
    finished verification, that it is done and what happens next."""
    finished = links.refusal(merchant) is not None
    outcome = words.for_merchant(partner_name()).finished(merchant.status or "")
    return make_response(render_template(
        "verification/link_over.html", reason=checked.reason, finished=finished,
        outcome=outcome, refusal=refusal, brand=branding.current(current_settings()),
        renew_url=url_for("verification.merchant_renew", merchant_id=merchant.id, token=token),
        language_url=language_url(merchant.id, token)), status)
