"""The branding settings page for admins, and what merchant pages load of it (public)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.models.user import Role
from portal.domain.branding import service
from portal.domain.branding.logo import LOGO_MAX_BYTES, LOGO_TYPES
from portal.domain.branding.service import DEFAULT_ACCENT, BrandingChange
from portal.domain.documents.service import size_text
from portal.features.branding.forms import BrandingForm
from portal.web.auth.access import current_actor, public, roles_required
from portal.web.uploads import reads_oversize_uploads

bp = Blueprint("branding", __name__)


@bp.route("/admin/branding", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
@reads_oversize_uploads
def settings() -> ResponseReturnValue:
    """Edit the branding; a refused field keeps what was typed, with its error beside it."""
    row = service.saved()
    form = BrandingForm(obj=row)
    if form.validate_on_submit():
        service.save(BrandingChange(
            display_name=(form.display_name.data or "").strip(),
            sender_name=(form.sender_name.data or "").strip(),
            accent_colour=form.accent_colour.data or "", logo=form.logo_data,
            logo_type=form.logo_type, remove_logo=bool(form.remove_logo.data)), current_actor())
        flash("The branding was saved: merchants see it on their next page and email.",
              "success")
        return redirect(url_for("branding.settings"))
    return render_template(
        "branding/settings.html", form=form, brand=service.current(current_settings()),
        default_name=current_settings().partner_name, default_accent=DEFAULT_ACCENT,
        logo_types=", ".join(LOGO_TYPES.values()), logo_limit=size_text(LOGO_MAX_BYTES)), (
        400 if form.errors else 200)


@bp.get("/branding/logo")
@public
def logo() -> ResponseReturnValue:
    """The partner's logo, as uploaded (its type judged on upload), or 404."""
    found = service.logo()
    if found is None:
        abort(404)
    data, kind = found
    return Response(data, mimetype=kind)


@bp.get("/branding/theme.css")
@public
def theme() -> ResponseReturnValue:
    """The accent colour as the stylesheet's variables (the CSP allows no inline style)."""
    brand = service.current(current_settings())
    css = (f".partner-page {{ --brand: {brand.accent}; --brand-dark: {brand.accent_dark}; }}"
           "\n")
    return Response(css, mimetype="text/css")
