"""The audit trail's filter form (a GET form: no CSRF token)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from wtforms import DateField, Field, Form, SearchField, SelectChoice, SelectField
from wtforms.validators import Optional, ValidationError

from portal.core.label_tables import TABLES, Kind
from portal.domain.audit.trail import AuditFilters
from portal.features.admin.sentences import action_words
from portal.web.form_base import PortalForm

#: The days the audit filter accepts: any day the portal can have recorded, with room to spare.
FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2999, 12, 31)


def within_audit_days(_form: Form, field: Field) -> None:
    """Refuse a day outside FIRST_DAY..LAST_DAY (31 December 9999 has no next day to stop at)."""
    if field.data is not None and not FIRST_DAY <= field.data <= LAST_DAY:
        raise ValidationError("Enter a day between 1 January 2000 and 31 December 2999.")


def _choices(codes: list[str], words: Callable[[str], str],
             anything: str) -> list[SelectChoice]:
    """A select's choices: 'any', then each code by its words, alphabetically."""
    return [SelectChoice("", anything), *sorted(
        (SelectChoice(code, words(code)) for code in codes), key=lambda c: c.label.lower())]


def _outcome_words(code: str) -> str:
    words = TABLES[Kind.OUTCOME][code]
    return words[:1].upper() + words[1:]


class AuditFilterForm(PortalForm):
    """Filter by actor, action, merchant, outcome and a range of UTC days, in words."""

    class Meta:
        csrf = False

    actor = SearchField("Who", description="Part of an email, or system, webhook, merchant "
                                           "link, reminders.")
    # not checked against the list: older links carry the start of an action (step.send)
    action = SelectField("What happened", choices=_choices(
        list(TABLES[Kind.AUDIT_ACTION]), action_words, "Anything"), validate_choice=False)
    merchant = SearchField("Merchant", description="Part of its name or external id, or its "
                                                   "number.")
    outcome = SelectField("Outcome", choices=_choices(
        list(TABLES[Kind.OUTCOME]), _outcome_words, "Any outcome"), validate_choice=False)
    date_from = DateField("From (UTC day)", validators=[Optional(), within_audit_days])
    date_to = DateField("To (UTC day)", validators=[Optional(), within_audit_days])

    def filters(self) -> AuditFilters:
        """The filters as typed; a field that does not parse (or holds a control character)
        does not filter."""
        return AuditFilters(
            actor=(self.actor.data or "") if not self.actor.errors else "",
            action=(self.action.data or "") if not self.action.errors else "",
            merchant=(self.merchant.data or "") if not self.merchant.errors else "",
            outcome=(self.outcome.data or "") if not self.outcome.errors else "",
            date_from=self.date_from.data if not self.date_from.errors else None,
            date_to=self.date_to.data if not self.date_to.errors else None)
