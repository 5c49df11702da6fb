"""Step 8's pages for ops: the gate and links, the embedded verification page, merchant links
(the merchant's own pages are ``merchant_routes``)."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    url_for,
)
from flask.typing import ResponseReturnValue

from portal.core import clock
from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.models.merchant import Merchant
from portal.core.redaction import masked_email
from portal.domain.audit.service import Actor
from portal.domain.branding import service as branding
from portal.domain.onboarding import device_checks, progress
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding.drafts import drafts_of, get_merchant
from portal.domain.onboarding.signatory import signatory_of
from portal.domain.onboarding.verification_link import (
    OPS,
    gate,
    latest_link,
    mint_link,
    refresh_checklist,
)
from portal.features.verification import service, words
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF
from portal.web.security_headers import content_security_policy

bp = Blueprint("verification", __name__)


@bp.get("/merchants/<int:merchant_id>/verification")
@roles_required(*STAFF)
def page(merchant_id: int) -> ResponseReturnValue:
    """The gate (what is still missing), the last link minted and the merchant links."""
    return render_page(load(merchant_id))


def render_page(merchant: Merchant, new_link: str = "") -> str:
    """The verification page, with a just-issued merchant link to copy if there is one."""
    signatory = signatory_of(merchant)
    return render_template("verification/page.html", merchant=merchant,
                           stepper=progress.stepper(merchant, drafts_of(merchant)),
                           gate=gate(merchant), latest=latest_link(merchant),
                           merchant_links=links.links_of(merchant), now=clock.utcnow(),
                           new_link=new_link, checks=device_checks.checks_of(merchant.id),
                           check_words=device_checks.FOUND,
                           signatory_email=masked_email(signatory.email) if signatory else "",
                           asks_open=progress.documents_asked(merchant))


@bp.get("/merchants/<int:merchant_id>/verification/session")
@roles_required(*STAFF)
def session(merchant_id: int) -> ResponseReturnValue:
    """The gateway's verification page in an iframe, on a link minted for this view."""
    merchant = load(merchant_id)
    callback = url_for("verification.session", merchant_id=merchant.id, _external=True)
    confirm_url = url_for("verification.confirm", merchant_id=merchant.id)
    return embedded("verification/session.html", merchant, callback, confirm_url, OPS,
                    words.for_ops(), current_actor())


@bp.post("/merchants/<int:merchant_id>/verification/confirm")
@roles_required(*STAFF)
def confirm(merchant_id: int) -> ResponseReturnValue:
    """The page reported completion: read the status server-side and answer what it says."""
    return jsonify(service.confirm(current_onboarding_client(), load(merchant_id),
                                   words.for_ops(), current_actor()))


@bp.post("/merchants/<int:merchant_id>/verification/links")
@roles_required(*STAFF)
def issue_link(merchant_id: int) -> ResponseReturnValue:
    """Issue a 24-hour link the sub-merchant can open without a portal account.

    The page is rendered here rather than after a redirect, so the link is shown once and
    never travels in the session cookie's flash messages.
    """
    merchant = load(merchant_id)
    try:
        _link, token = links.issue(current_settings().secret_key, merchant, current_actor())
    except links.LinkRefused as exc:
        flash(str(exc), "error")
        return redirect(url_for("verification.page", merchant_id=merchant.id))
    url = url_for("verification.merchant_page", merchant_id=merchant.id, token=token,
                  _external=True)
    return render_page(merchant, new_link=url)


@bp.post("/merchants/<int:merchant_id>/verification/links/<int:link_id>/revoke")
@roles_required(*STAFF)
def revoke_link(merchant_id: int, link_id: int) -> ResponseReturnValue:
    """Withdraw a merchant link at once."""
    merchant = load(merchant_id)
    if not links.revoke(merchant, link_id, current_actor()):
        abort(404)
    flash("The link was withdrawn; it no longer opens the verification page.", "success")
    return redirect(url_for("verification.page", merchant_id=merchant.id))


def load(merchant_id: int) -> Merchant:
    """The merchant, or 404."""
    return get_merchant(merchant_id) or abort(404)


def embedded(template: str, merchant: Merchant, callback: str, confirm_url: str,
             via: str, page_words: words.PageWords, actor: Actor,
             **extra: object) -> ResponseReturnValue:
    """Read the status, mint a link for this view (if the gate is open) and render it framed,
    CSP allowing it, in ``page_words`` (``extra``: the template's own values); what it does is
    ``actor``'s."""
    client = current_onboarding_client()
    brand = branding.current(current_settings())
    refresh_checklist(client, merchant, actor)
    found = gate(merchant)
    minted = mint_link(client, merchant, callback, via, actor) if found.open else None
    html = render_template(template, merchant=merchant, gate=found, minted=minted,
                           confirm_url=confirm_url, progress=service.progress(merchant),
                           gateway_origin=current_settings().verification_origin,
                           words=page_words, brand=brand, partner=brand.display_name, **extra)
    return html, 200, {"Content-Security-Policy": content_security_policy(
        current_settings(), frame_from_gateway=True)}
