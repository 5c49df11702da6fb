"""The Approvals page's form: one per request, its reason and the button pressed."""

from __future__ import annotations

from wtforms import SelectChoice, SelectField, TextAreaField
from wtforms.validators import DataRequired, Length

from portal.domain.four_eyes.decisions import NOTE_MAX
from portal.web.form_base import PortalForm

APPROVE = "approve"
REJECT = "reject"


class DecisionForm(PortalForm):
    """Approve or reject one request; a rejection says why (an approval may)."""

    reason = TextAreaField("Reason for your decision", validators=[
        Length(max=NOTE_MAX, message=f"Keep the reason under {NOTE_MAX} characters.")],
        description="Needed to reject: the admin who asked reads it. Optional to approve.")
    decision = SelectField(choices=[SelectChoice(APPROVE, "Approve"),
                                    SelectChoice(REJECT, "Reject")],
                           validators=[DataRequired("Press Approve or Reject.")])
