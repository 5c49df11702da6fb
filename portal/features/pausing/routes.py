"""A merchant's pause page: its open pauses and deactivation with who did it and why, the pause
form (any staff), the deactivate form and the lift button (admins only)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.models import Role
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import StopKind
from portal.domain.onboarding.drafts import get_merchant
from portal.domain.pausing import stops
from portal.domain.pausing.reasons import KIND_WORDS, reason_words
from portal.features.pausing.forms import LiftForm, StopForm
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("pausing", __name__)


@bp.get("/merchants/<int:merchant_id>/pause")
@roles_required(*STAFF)
def page(merchant_id: int) -> ResponseReturnValue:
    """The merchant's open stops and the forms to pause, deactivate or lift."""
    return _page(get_merchant(merchant_id) or abort(404))


@bp.post("/merchants/<int:merchant_id>/pause")
@roles_required(*STAFF)
def pause(merchant_id: int) -> ResponseReturnValue:
    """Pause the merchant's new payments."""
    return _stop(get_merchant(merchant_id) or abort(404), StopKind.PAUSE)


@bp.post("/merchants/<int:merchant_id>/deactivate")
@roles_required(Role.ADMIN)
def deactivate(merchant_id: int) -> ResponseReturnValue:
    """Deactivate the merchant (an admin's decision)."""
    return _stop(get_merchant(merchant_id) or abort(404), StopKind.DEACTIVATE)


@bp.post("/merchants/<int:merchant_id>/stops/<int:stop_id>/lift")
@roles_required(Role.ADMIN)
def lift(merchant_id: int, stop_id: int) -> ResponseReturnValue:
    """Lift a pause or a deactivation (admins only)."""
    merchant = get_merchant(merchant_id) or abort(404)
    form = LiftForm(prefix=f"lift{stop_id}")
    if not form.validate_on_submit():
        return _page(merchant, failed_lift=(stop_id, form)), 400
    outcome = stops.lift(merchant, stop_id, form.note.data or "", current_actor())
    flash(outcome.message, "success" if outcome.ok else "error")
    return redirect(url_for(".page", merchant_id=merchant.id))


def _stop(merchant: Merchant, kind: StopKind) -> ResponseReturnValue:
    form = StopForm(kind)
    if form.validate_on_submit():
        outcome = stops.stop(merchant, kind, form.reason.data, form.note.data or "",
                             current_actor())
        if outcome.ok:
            flash(outcome.message, "success")
            return redirect(url_for(".page", merchant_id=merchant.id))
        getattr(form, outcome.field or "reason").errors.append(outcome.message)
    return _page(merchant, **{f"{kind.value}_form": form}), 400


def _page(merchant: Merchant, pause_form: StopForm | None = None,
          deactivate_form: StopForm | None = None,
          failed_lift: tuple[int, LiftForm] | None = None) -> str:
    opened = stops.open_stops(merchant)
    lift_forms = {stop.id: LiftForm(prefix=f"lift{stop.id}") for stop in opened}
    if failed_lift is not None:
        lift_forms.update([failed_lift])
    return render_template(
        "pausing/page.html", merchant=merchant, stops=opened, lift_forms=lift_forms,
        pause_form=pause_form or StopForm(StopKind.PAUSE),
        deactivate_form=deactivate_form or StopForm(StopKind.DEACTIVATE),
        kind_words=KIND_WORDS, reason_words=reason_words, StopKind=StopKind,
        retention_days=current_settings().document_retention_days)
