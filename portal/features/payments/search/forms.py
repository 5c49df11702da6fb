"""The payments list's search and filters (a GET form: no CSRF token)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement
from wtforms import DateField, Field, Form, SearchField, SelectChoice, SelectField, StringField
from wtforms.validators import Length, Optional, ValidationError

from portal.core.labels import Kind, label
from portal.core.models.payment import units_of
from portal.core.redaction import masked_email
from portal.domain.payments.expiry import EXPIRING
from portal.domain.payments.search.finding import PaymentFilters
from portal.domain.payments.service import STATUS_CHOICES
from portal.web.form_base import PortalForm

#: The days the payments search accepts: any day the portal can have taken a payment, with
#: room to spare (31 December 9999 has no next day to stop at).
FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2999, 12, 31)


def _within_days(_form: Form, field: Field) -> None:
    if field.data is not None and not FIRST_DAY <= field.data <= LAST_DAY:
        raise ValidationError("Enter a day between 1 January 2000 and 31 December 2999.")


#: An amount written with thousands separators: 1,250.50 or 1,25,000 (Indian grouping).
_GROUPED_AMOUNT = re.compile(r"[0-9]{1,3}(?:[, ][0-9]{2,3})+(?:\.[0-9]+)?")


def searched_units(typed: str) -> int | None:
    """An amount as typed in the search ("1,250.5") in ten-thousandths; None if unreadable."""
    text = typed.strip()
    return units_of(re.sub(r"[, ]", "", text) if _GROUPED_AMOUNT.fullmatch(text) else text)


def _an_amount(_form: Form, field: Field) -> None:
    if (field.data or "").strip() and searched_units(field.data) is None:
        raise ValidationError("Enter an amount in digits with at most 4 decimal places, "
                              "e.g. 1250.50.")


class FilterForm(PortalForm):
    """The payments list's search and filters (a GET form: no CSRF token); a field that does
    not parse is refused beside itself and does not filter."""

    class Meta:
        csrf = False

    q = SearchField("Guest name, order reference or customer email",
                    validators=[Length(max=254)],
                    description="Part of the guest's first or last name; or in full: the order "
                                "reference, the gateway's reference, or the customer's email "
                                "address.")
    merchant = SearchField("Merchant", validators=[Length(max=200)],
                           description="Part of its name or external id.")
    amount = StringField("Amount", validators=[_an_amount],
                         description="The exact amount, in any currency, e.g. 1250.50.")
    date_from = DateField("Created from (UTC day)", validators=[Optional(), _within_days])
    date_to = DateField("Created to (UTC day)", validators=[Optional(), _within_days])
    status = SelectField("Status", validate_choice=False, choices=[
        SelectChoice("", "Any status"),
        SelectChoice(EXPIRING, "Authorised, expiring soon"),
        *(SelectChoice(s, label(s, Kind.PAYMENT_STATUS)) for s in STATUS_CHOICES)])

    def validate_date_to(self, field: Field) -> None:
        """The last day is not before the first."""
        first = self.date_from.data if not self.date_from.errors else None
        if field.data is not None and first is not None and field.data < first:
            raise ValidationError("The last day is before the first: swap them.")

    def _kept(self, field: Field) -> Any:
        return None if field.errors else field.data

    def query_args(self) -> dict[str, str]:
        """The filters as typed, for the links that keep them (pages, the export)."""
        return {name: str(self[name].raw_data[0]) for name in self.data
                if self[name].raw_data and self[name].raw_data[0]}

    def audited(self) -> dict[str, str]:
        """The filters as the audit keeps them: a customer's email masked."""
        args = self.query_args()
        if "@" in args.get("q", ""):
            args["q"] = masked_email(args["q"].strip())
        return args

    def filters(self, merchant_id: int | None,
                expiring: ColumnElement[bool]) -> PaymentFilters:
        """The filters as typed, of one merchant's list or all (``merchant_id``); "expiring
        soon" is the ``expiring`` condition rather than a status."""
        status = self._kept(self.status) or ""
        amount = (self._kept(self.amount) or "").strip()
        return PaymentFilters(
            merchant_id=merchant_id, text=self._kept(self.q) or "",
            merchant="" if merchant_id is not None else self._kept(self.merchant) or "",
            amount_units=searched_units(amount) if amount else None,
            date_from=self._kept(self.date_from), date_to=self._kept(self.date_to),
            status="" if status == EXPIRING else status,
            only=expiring if status == EXPIRING else None)
