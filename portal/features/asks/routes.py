"""The merchant page's actions on what the gateway asks: word an asked document, send the
merchant's upload to the gateway after review, or refuse it with a reason (no four eyes; each
audited). The panel itself is drawn by the merchant's page (``pages.panel``)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.languages import BY_CODE
from portal.core.models.merchant import Merchant
from portal.domain.asks import service, wording
from portal.domain.branding import service as branding
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding.drafts import get_merchant
from portal.features.asks.forms import RefuseForm
from portal.features.asks.pages import words_form
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.held_forms import held_typing, keeps_typing
from portal.web.auth.roles import STAFF

bp = Blueprint("asks", __name__)
#: Where the merchant's page shows the panel.
ANCHOR = "#asks-heading"


@bp.route("/merchants/<int:merchant_id>/asks/<ref>/words", methods=["GET", "POST"])
@keeps_typing
@roles_required(*STAFF)
def words(merchant_id: int, ref: str) -> ResponseReturnValue:
    """How one asked document is worded for the merchant (each language) and for ops: saved
    back to the merchant's page, or this page again with each error beside its field."""
    merchant = load(merchant_id)
    partner = branding.current(current_settings()).display_name
    ask = find(merchant, ref) or abort(404)
    form = words_form(ask, wording.written_for(merchant).get(ask.key), partner,
                      **held_typing())
    if form.validate_on_submit():
        wording.write(merchant, ask.key, form.merchant_texts(),
                      (form.ops_words.data or "").strip(), current_actor())
        flash(f"The wording of {ask.ops_words} is saved.", "success")
        return back(merchant)
    return render_template("asks/words.html", merchant=merchant, ask=ask, form=form,
                           reads=BY_CODE[merchant_language.language_of(merchant)])


@bp.post("/merchants/<int:merchant_id>/asks/<int:document_id>/send")
@roles_required(*STAFF)
def send(merchant_id: int, document_id: int) -> ResponseReturnValue:
    """Send the merchant's upload to the gateway, once reviewed."""
    merchant = load(merchant_id)
    document = service.reviewable(merchant, document_id) or abort(404)
    result = service.send(current_onboarding_client(), current_settings(), merchant, document,
                          current_actor())
    flash(result.message, "success" if result.ok else "error")
    return back(merchant)


@bp.route("/merchants/<int:merchant_id>/asks/<int:document_id>/refuse",
          methods=["GET", "POST"])
@keeps_typing
@roles_required(*STAFF)
def refuse(merchant_id: int, document_id: int) -> ResponseReturnValue:
    """Refuse the merchant's upload with the reason they read on their link: back to the
    merchant's page, or this page again with the reason's error beside it."""
    merchant = load(merchant_id)
    document = service.reviewable(merchant, document_id) or abort(404)
    form = RefuseForm(**held_typing())
    if form.validate_on_submit():
        service.refuse(merchant, document, form.reason.data.strip(), current_actor())
        flash("Refused: the merchant reads why on their link and can upload it again.",
              "success")
        return back(merchant)
    return render_template("asks/refuse.html", merchant=merchant, document=document,
                           form=form, reads=BY_CODE[merchant_language.language_of(merchant)])


def find(merchant: Merchant, ref: str) -> service.Ask | None:
    """The ask the merchant's page names ``ref``."""
    settings = current_settings()
    return next((ask for ask in service.asks_of(merchant, settings.secret_key,
                                                branding.current(settings).display_name)
                 if ask.ref == ref), None)


def load(merchant_id: int) -> Merchant:
    """The merchant, or 404."""
    return get_merchant(merchant_id) or abort(404)


def back(merchant: Merchant) -> ResponseReturnValue:
    """Back to the merchant's page, at the panel."""
    return redirect(url_for("merchants.detail", merchant_id=merchant.id) + ANCHOR)
