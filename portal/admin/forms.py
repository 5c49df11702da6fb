"""The audit trail's filter form (a GET form: no CSRF token)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, SearchField
from wtforms.validators import NumberRange, Optional

from portal.admin.service import AuditFilters


class AuditFilterForm(FlaskForm):
    """Filter by actor, action, merchant, outcome and a range of UTC days."""

    class Meta:
        csrf = False

    actor = SearchField("Actor", description="Part of an email, or 'system', 'webhook'.")
    action = SearchField("Action", description="An action or its start, e.g. 'step.send'.")
    merchant = IntegerField("Merchant id", validators=[Optional(), NumberRange(min=1)])
    outcome = SearchField("Outcome", description="e.g. ok, refused, unavailable, stale.")
    date_from = DateField("From (UTC day)", validators=[Optional()])
    date_to = DateField("To (UTC day)", validators=[Optional()])

    def filters(self) -> AuditFilters:
        """The filters as typed; a field that does not parse does not filter."""
        return AuditFilters(
            actor=self.actor.data or "", action=self.action.data or "",
            merchant_id=self.merchant.data if not self.merchant.errors else None,
            outcome=self.outcome.data or "",
            date_from=self.date_from.data if not self.date_from.errors else None,
            date_to=self.date_to.data if not self.date_to.errors else None)
