"""The audit trail's filter form (a GET form: no CSRF token)."""

from __future__ import annotations

from datetime import date

from wtforms import DateField, Field, Form, IntegerField, SearchField
from wtforms.validators import NumberRange, Optional, ValidationError

from portal.admin.service import AuditFilters
from portal.form_base import PortalForm
from portal.http import MAX_ROW_ID

#: The days the audit filter accepts: any day the portal can have recorded, with room to spare.
FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2999, 12, 31)


def within_audit_days(_form: Form, field: Field) -> None:
    """Refuse a day outside FIRST_DAY..LAST_DAY (31 December 9999 has no next day to stop at)."""
    if field.data is not None and not FIRST_DAY <= field.data <= LAST_DAY:
        raise ValidationError("Enter a day between 1 January 2000 and 31 December 2999.")


class AuditFilterForm(PortalForm):
    """Filter by actor, action, merchant, outcome and a range of UTC days."""

    class Meta:
        csrf = False

    actor = SearchField("Actor", description="Part of an email, or 'system', 'webhook'.")
    action = SearchField("Action", description="An action or its start, e.g. 'step.send'.")
    merchant = IntegerField("Merchant id", validators=[Optional(), NumberRange(
        min=1, max=MAX_ROW_ID, message="Enter a merchant id as the merchants list shows it.")])
    outcome = SearchField("Outcome", description="e.g. ok, refused, unavailable, stale.")
    date_from = DateField("From (UTC day)", validators=[Optional(), within_audit_days])
    date_to = DateField("To (UTC day)", validators=[Optional(), within_audit_days])

    def filters(self) -> AuditFilters:
        """The filters as typed; a field that does not parse (or holds a control character)
        does not filter."""
        return AuditFilters(
            actor=self.actor.data or "" if not self.actor.errors else "",
            action=self.action.data or "" if not self.action.errors else "",
            merchant_id=self.merchant.data if not self.merchant.errors else None,
            outcome=self.outcome.data or "" if not self.outcome.errors else "",
            date_from=self.date_from.data if not self.date_from.errors else None,
            date_to=self.date_to.data if not self.date_to.errors else None)
