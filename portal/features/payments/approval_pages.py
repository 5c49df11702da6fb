"""The payments pages' way into four-eyes: a form whose change needs a second admin is stored
as a request instead of being carried out, its problems put beside the form's fields.

Each ``ask_*`` returns True when the page should redirect (the request is stored, or the form
was used already: a flash says which), False when a field carries an error to show.
"""

from __future__ import annotations

from flask import flash
from wtforms import Field

from portal.core.models.merchant import Merchant
from portal.core.models.payment import Payment
from portal.domain.four_eyes import requests
from portal.domain.payments.credentials import PORTFOLIO
from portal.features.payments.forms import ActionForm, CredentialsForm, PortfolioKeyForm

WAITING = ("It now waits for another admin on the Approvals page and is carried out once "
           "approved (it lapses after 24 hours).")


def _beside(field: Field, refused: requests.RequestRefused) -> bool:
    field.errors = [refused.message]
    return False


def ask_for_refund(payment: Payment, form: ActionForm, user_id: int) -> bool:
    """Store the large refund the action form asks for."""
    try:
        asked = requests.request_refund(payment, form.amount_or_none(), bool(form.again.data),
                                        form.reason.data, form.nonce.data, user_id)
    except requests.RequestRefused as refused:
        if not refused.field:
            flash(refused.message, "error")
            return True
        return _beside(form[refused.field], refused)
    flash(f"Nothing was sent yet: a refund of {asked.payload['amount']} {payment.currency} "
          f"needs a second admin's approval. {WAITING}", "success")
    return True


def own_pem(form: CredentialsForm) -> str | None:
    """The PEM the credentials form imports (none when it chooses the portfolio key)."""
    return None if form.key_source.data == PORTFOLIO else form.imported_pem()


def ask_for_merchant_key(merchant: Merchant, form: CredentialsForm, user_id: int) -> bool:
    """Store the credentials change the form asks for (``CredentialsError`` passes through)."""
    try:
        requests.request_merchant_key(merchant, form.mid.data, form.kid.data, own_pem(form),
                                      bool(form.replace.data), form.key_source.data == PORTFOLIO,
                                      form.reason.data, user_id)
    except requests.RequestRefused as refused:
        return _beside(form.reason, refused)
    flash(f"The credentials were not changed yet. {WAITING}", "success")
    return True


def ask_for_portfolio_key(form: PortfolioKeyForm, user_id: int) -> bool:
    """Store the portfolio key change the form asks for (``CredentialsError`` passes through)."""
    try:
        requests.request_portfolio_key(form.parent_mid.data, form.kid.data, form.imported_pem(),
                                       bool(form.replace.data), form.reason.data, user_id)
    except requests.RequestRefused as refused:
        return _beside(form.reason, refused)
    flash(f"The portfolio key was not changed yet. {WAITING}", "success")
    return True
