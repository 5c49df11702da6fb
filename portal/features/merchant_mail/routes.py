"""Pages of merchant mail: "Email the merchant" for staff, the template editor for admins (a
merchant email in each language, one at a time).

The app-wide CSRFProtect checks every POST's token before these views run."""

from __future__ import annotations

from collections.abc import Sized

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.languages import BY_CODE, DEFAULT, Language
from portal.core.models.user import Role
from portal.domain.merchant_mail import templates
from portal.domain.merchant_mail.delivery import DeliveryError, email_link
from portal.domain.onboarding.drafts import get_merchant
from portal.features.merchant_mail.forms import TemplateForm
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.roles import STAFF

bp = Blueprint("merchant_mail", __name__)


@bp.post("/merchants/<int:merchant_id>/verification/email")
@roles_required(*STAFF)
def email_merchant(merchant_id: int) -> ResponseReturnValue:
    """Email the signatory a fresh 24-hour verification link."""
    merchant = get_merchant(merchant_id) or abort(404)
    try:
        shown = email_link(current_settings(), merchant, "merchant_link", current_actor())
    except DeliveryError as exc:
        flash(str(exc), "error")
    else:
        flash(f"A verification link (valid 24 hours) was emailed to {shown}.", "success")
    return redirect(url_for("verification.page", merchant_id=merchant.id))


@bp.get("/admin/emails")
@roles_required(Role.ADMIN)
def index() -> ResponseReturnValue:
    """The emails (to merchants, and to the team) and the text in force for each, in each
    language it is written in."""
    return render_template("merchant_mail/index.html", texts=templates.all_current(),
                           languages=BY_CODE, sandbox=current_settings().gateway_is_sandbox)


def _language(key: str) -> Language:
    """The language of ``key`` a page edits: ``?language=``, English unless it names another;
    404 for an email or a language the email is not written in."""
    if key not in templates.DEFAULTS:
        abort(404)
    written_in = {language.code: language for language in templates.languages_of(key)}
    return written_in.get(request.args.get("language", DEFAULT)) or abort(404)


@bp.route("/admin/emails/<key>", methods=["GET", "POST"])
@roles_required(Role.ADMIN)
def edit(key: str) -> ResponseReturnValue:
    """Edit one email's subject and body in one language; placeholders are checked before
    saving, and the other languages keep their own text."""
    language = _language(key)
    versions = templates.versions(key)
    text = next(version for version in versions if version.language == language.code)
    form = TemplateForm(data={"subject": text.subject, "body": text.body})
    if form.validate_on_submit():
        try:
            templates.save(key, language.code, form.subject.data, form.body.data,
                           current_actor())
        except templates.TemplateRefused as exc:
            form[exc.field].errors.append(str(exc))
        else:
            db.session.commit()
            flash(f"{_named(text, versions)} was saved.", "success")
            return redirect(url_for(".edit", key=key, language=language.code))
    return render_template("merchant_mail/edit.html", form=form, text=text, language=language,
                           choices=[(BY_CODE[v.language], v) for v in versions],
                           built_in=templates.built_in(key, language.code))


@bp.post("/admin/emails/<key>/restore")
@roles_required(Role.ADMIN)
def restore(key: str) -> ResponseReturnValue:
    """Go back to the built-in text of one email in one language."""
    language = _language(key)
    templates.restore_default(key, language.code, current_actor())
    db.session.commit()
    text = templates.built_in(key, language.code)
    flash(f"{_named(text, templates.languages_of(key))} is the built-in text again.",
          "success")
    return redirect(url_for(".edit", key=key, language=language.code))


def _named(text: templates.EmailText, languages: Sized) -> str:
    """The email in a flash: its title, and its language when it is written in more than one."""
    if len(languages) == 1:
        return f"The email '{text.title}'"
    return f"The {BY_CODE[text.language].english_name} text of '{text.title}'"
