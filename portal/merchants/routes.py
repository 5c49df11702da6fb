"""The merchants list and one merchant's summary."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue

from portal.auth import roles_required
from portal.merchants.forms import SearchForm
from portal.merchants.service import TOTAL_STEPS, search_merchants
from portal.onboarding import service as onboarding
from portal.wizard.pages import STAFF

bp = Blueprint("merchants", __name__)


@bp.get("/merchants")
@roles_required(*STAFF)
def index() -> ResponseReturnValue:
    """Every merchant with status, steps done and last activity; searchable and paged."""
    form = SearchForm(request.args)
    page = search_merchants(form.q.data or "", form.status.data or "",
                            request.args.get("page", 1, type=int))
    return render_template("merchants/index.html", form=form, page=page,
                           total_steps=TOTAL_STEPS)


@bp.get("/merchants/<int:merchant_id>")
@roles_required(*STAFF)
def detail(merchant_id: int) -> ResponseReturnValue:
    """One merchant: identifiers, status, checklist, outstanding documents, the stepper."""
    merchant = onboarding.get_merchant(merchant_id) or abort(404)
    stepper = onboarding.stepper(merchant, onboarding.drafts_of(merchant))
    return render_template("merchants/detail.html", merchant=merchant, stepper=stepper)
