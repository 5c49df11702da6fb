"""The development mailbox page: admins read what the local SMTP sink received (sandbox only)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.models.user import Role
from portal.features.mail.mailbox import newest
from portal.web.auth.access import roles_required

bp = Blueprint("mail", __name__)


@bp.get("/admin/mailbox")
@roles_required(Role.ADMIN)
def mailbox() -> ResponseReturnValue:
    """The newest messages the sink kept; 404 unless the portal runs against the sandbox."""
    settings = current_settings()
    if not settings.gateway_is_sandbox:
        abort(404)
    folder = settings.mail_sink_folder
    return render_template("mail/mailbox.html", portal_url=settings.portal_url,
                           messages=newest(Path(folder), settings.portal_url) if folder else [])
