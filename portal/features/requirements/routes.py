"""Email a merchant what they will need: before step 1 (the choice the new-merchant page made,
an address ops type) and from the merchant's summary (the rows still open, to the signatory
by default). The app-wide CSRFProtect checks every POST's token before these views run."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from portal.core.config import current_settings
from portal.core.models.merchant import Merchant
from portal.domain.documents.service import documents_of
from portal.domain.merchant_mail.delivery import DeliveryError
from portal.domain.onboarding import merchant_language
from portal.domain.onboarding.drafts import drafts_of, get_merchant
from portal.domain.onboarding.signatory import signatory_of
from portal.domain.requirements.checklist import merchant_checklist
from portal.domain.requirements.mail import Recipient, email_needs
from portal.domain.requirements.table import Requirement
from portal.features.requirements.forms import NeedsEmailForm
from portal.web.auth.access import current_actor, roles_required
from portal.web.auth.held_forms import held_typing, keeps_typing
from portal.web.auth.roles import STAFF
from portal.web.requirement_pages import RequirementChoiceForm

bp = Blueprint("requirements", __name__)


@bp.route("/merchants/new/needs-email", methods=["GET", "POST"])
@keeps_typing
@roles_required(*STAFF)
def before_step_one() -> ResponseReturnValue:
    """The list the new-merchant page shows for the chosen entity type, category and products,
    emailed to the address typed here; back to the new-merchant page with the same choice."""
    choice = RequirementChoiceForm(formdata=request.args)
    rows = choice.profile().needs()
    form = NeedsEmailForm(**held_typing())
    back = url_for("wizard.new", **choice.query())
    if form.validate_on_submit() and _sent(form, rows, None):
        return redirect(back)
    return render_template("requirements/email.html", form=form, rows=rows, merchant=None,
                           back=back, chosen=bool(choice.choice()))


@bp.route("/merchants/<int:merchant_id>/needs-email", methods=["GET", "POST"])
@keeps_typing
@roles_required(*STAFF)
def for_merchant(merchant_id: int) -> ResponseReturnValue:
    """What the merchant still needs (its checklist's open rows), emailed to its signatory or
    an address typed here, in the merchant's language unless another is chosen."""
    merchant = get_merchant(merchant_id) or abort(404)
    drafts = drafts_of(merchant)
    rows = [item.row for item in merchant_checklist(merchant, drafts, documents_of(merchant))
            if not item.done]
    form = NeedsEmailForm(**held_typing(), data=_on_file(merchant))
    back = url_for("merchants.detail", merchant_id=merchant.id)
    if form.validate_on_submit() and _sent(form, rows, merchant):
        return redirect(back)
    return render_template("requirements/email.html", form=form, rows=rows, merchant=merchant,
                           back=back, chosen=True)


def _on_file(merchant: Merchant) -> dict[str, str]:
    signatory = signatory_of(merchant)
    return {"email": signatory.email if signatory else "",
            "name": signatory.name if signatory else "", "business": merchant.public_name,
            "language": merchant_language.language_of(merchant)}


def _sent(form: NeedsEmailForm, rows: list[Requirement], merchant: Merchant | None) -> bool:
    """Email the list; flash where it went, or put the mail server's refusal beside the address
    (the form keeps what was typed)."""
    recipient = Recipient(form.email.data, form.name.data or "", form.business.data or "",
                          form.language.data)
    try:
        shown = email_needs(current_settings(), recipient, rows, current_actor(), merchant)
    except DeliveryError as exc:
        form.email.errors.append(str(exc))
        return False
    flash(f"The list of what the merchant will need was emailed to {shown}.", "success")
    return True
