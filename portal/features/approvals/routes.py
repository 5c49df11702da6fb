"""The Approvals page: admins see what waits for a second admin and approve or reject it."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.approval import ApprovalRequest
from portal.core.models.user import Role
from portal.domain.four_eyes import decisions, queries
from portal.domain.payments import wording
from portal.features.approvals.forms import APPROVE, DecisionForm
from portal.web.auth.access import current_actor, roles_required

bp = Blueprint("approvals", __name__, url_prefix="/approvals")


@bp.get("/")
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """Requests waiting (oldest first) and the latest decided ones."""
    decisions.expire_overdue(current_actor())
    return page()


@bp.post("/<int:request_id>")
@roles_required(Role.ADMIN)
def decide(request_id: int) -> ResponseReturnValue:
    """Approve (runs the action once) or reject one request; a refusal is shown beside its
    reason field with what was typed kept."""
    if db.session.get(ApprovalRequest, request_id) is None:
        abort(404)
    form = DecisionForm()
    if form.validate_on_submit():
        reason = form.reason.data or ""
        result = (decisions.approve(current_settings(), request_id, current_user.id, reason)
                  if form.decision.data == APPROVE
                  else decisions.reject(request_id, current_user.id, reason))
        if result.ok or not result.field:
            flash(result.message, "success" if result.ok else "error")
            return redirect(url_for(".index"))
        form.reason.errors = [result.message]
    return page(request_id, form), 400


def page(failed_id: int | None = None, failed: DecisionForm | None = None) -> str:
    """The Approvals page; ``failed`` is the form of request ``failed_id`` that was refused."""
    waiting = queries.pending()
    return render_template("approvals/index.html", waiting=waiting,
                           subjects=queries.subjects(waiting), words=wording,
                           decided=queries.decided(), failed_id=failed_id, failed=failed,
                           form=DecisionForm(), queries=queries)
