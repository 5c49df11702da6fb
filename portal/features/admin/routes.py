"""Admin pages: the dashboard, the audit trail and the checklist export."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request
from flask.typing import ResponseReturnValue

from portal.core import clock
from portal.core.config import current_settings
from portal.core.models.user import Role
from portal.domain.audit import trail
from portal.domain.golive.checks import DEFAULT_PARTNER_NAME, merchants_read_the_default
from portal.domain.health.dormancy import dormant_count
from portal.domain.payments import expiry
from portal.features.admin import dashboard as board
from portal.features.admin.forms import AuditFilterForm
from portal.features.admin.sentences import action_words, event_sentences
from portal.web.auth.access import roles_required

bp = Blueprint("admin", __name__, url_prefix="/admin")


@bp.get("/")
@roles_required(Role.ADMIN)
def dashboard() -> ResponseReturnValue:
    """Every merchant's progress, the counts per status and the merchants that stall."""
    settings = current_settings()
    return render_template("admin/dashboard.html",
                           board=board.dashboard(settings.stale_after_days),
                           expiring_holds=expiry.expiring_count(settings, clock.utcnow()),
                           expiring_cap=expiry.COUNT_CAP,
                           dormant=dormant_count(settings.dormant_after_days, clock.utcnow()),
                           dormant_after_days=settings.dormant_after_days,
                           hold_warning_hours=settings.hold_warning_hours,
                           partner_unnamed=merchants_read_the_default(settings),
                           default_partner_name=DEFAULT_PARTNER_NAME)


@bp.get("/audit")
@roles_required(Role.ADMIN)
def audit() -> ResponseReturnValue:
    """The audit trail, filtered and paged; a filter that does not parse is a 400 with its
    message beside the field (and does not filter)."""
    form = AuditFilterForm(request.args)
    valid = form.validate()
    page = trail.audit_page(form.filters(), request.args.get("page", 1, type=int))
    args = {k: v for k, v in request.args.items() if k != "page"}
    merchants = trail.event_merchants(page.rows)
    return render_template("admin/audit.html", form=form, page=page, args=args,
                           merchants=merchants, action_words=action_words,
                           sentences=event_sentences(page.rows, merchants)), (
        200 if valid else 400)


@bp.get("/checklist.csv")
@roles_required(Role.ADMIN)
def checklist_csv() -> ResponseReturnValue:
    """Every merchant's checklist as CSV, cells made safe for spreadsheets."""
    rows = board.every_merchant_progress(current_settings().stale_after_days)
    name = f"checklist-{clock.utcnow():%Y%m%d-%H%M}.csv"
    return Response(board.checklist_csv(rows), mimetype="text/csv",
                    headers={"Content-Disposition": f"attachment; filename={name}"})
