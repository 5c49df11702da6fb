"""What people read for the codes the portal stores: one lookup over the tables of labels.

Every page (through the ``label`` filter and the ``badge`` global) and the CSV exports' human
columns take their words from here, so a status reads "Pending verification" everywhere and
never ``PENDING_VERIFICATION``. A code without a label is shown as it is (an unknown status the
gateway reported is worth seeing verbatim); the words themselves are in
``portal.core.label_tables``.
"""

from __future__ import annotations

from flask import Flask
from markupsafe import Markup, escape

from portal.core.label_tables import NOT_CREATED, TABLES, Kind
from portal.core.models.document import DocumentStatus
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepState
from portal.core.onboarding_statuses import codes_where as onboarding_where
from portal.core.onboarding_statuses import shown_words
from portal.core.payment_statuses import codes_where
from portal.gateway.onboarding.checklist_words import WORDS as CHECKLIST_WORDS
from portal.gateway.onboarding.checklist_words import Badge
from portal.gateway.onboarding.vocabulary import (
    AADHAR_DOC_PATTERN,
    STATUS_ALIASES,
    PennyDropStatus,
    known_status,
)
from portal.gateway.rules import mask

#: Badge colour groups: success, warning, danger; anything else is neutral. The checklist's
#: words, the payment statuses and the onboarding statuses bring the colours of their own
#: tables (portal.gateway.onboarding.checklist_words, portal.core.payment_statuses,
#: portal.core.onboarding_statuses).
_CODE_GROUPS: dict[str, frozenset[str]] = {
    Badge.SUCCESS: frozenset({PennyDropStatus.VERIFIED, DocumentStatus.SENT, StepState.SENT}),
    Badge.WARNING: frozenset({StepState.NEEDS_ATTENTION, StepState.QUEUED, DocumentStatus.NOT_SENT,
                              DocumentStatus.FROM_MERCHANT,
                              CreateState.OUTCOME_UNKNOWN, CreateState.NEEDS_RECONCILE}),
    Badge.DANGER: frozenset({PennyDropStatus.FAILED, DocumentStatus.REFUSED,
                                DocumentStatus.NOT_TAKEN}),
}
_TABLES = (codes_where, onboarding_where)
_GROUPS = {group: codes | {state for state, row in CHECKLIST_WORDS.items() if row.badge == group}
           | {code for table in _TABLES for code in table(badge=group)}
           for group, codes in _CODE_GROUPS.items()}


def document_label(doc_type: str) -> str:
    """A document type in words; an owner's Aadhaar names the owner and a masked PAN."""
    if AADHAR_DOC_PATTERN.fullmatch(doc_type):
        pan, _, rest = doc_type.partition("_")
        owner = rest.removesuffix("_AADHAR").replace("_", " ").title()
        return f"Aadhaar of {owner} (PAN {mask(pan)})"
    return TABLES[Kind.DOCUMENT].get(doc_type, doc_type)


def label(code: object, kind: str = Kind.STATUS) -> str:
    """The words for ``code`` in the table of ``kind``; the code itself when it has none."""
    text = "" if code is None else str(code)
    if kind == Kind.DOCUMENT:
        return document_label(text)
    if kind == Kind.STATUS and not text:
        return TABLES[Kind.STATUS][NOT_CREATED]
    return TABLES[Kind(kind)].get(text, text)


def status_group(code: object) -> str:
    """The badge colour group of a status: success, warning, danger or neutral."""
    text = str(code or "")
    contract = known_status(text) if text in STATUS_ALIASES else text
    return next((group for group, codes in _GROUPS.items() if contract in codes), "neutral")


def badge(code: object, kind: str = Kind.STATUS, text: str | None = None) -> Markup:
    """A coloured badge saying ``text`` (default: the label of ``code``); the code stays in
    ``data-code`` for scripts and tests."""
    return Markup('<span class="badge badge--{}" data-code="{}">{}</span>').format(
        status_group(code), escape(str(code or "")), label(code, kind) if text is None else text)


def status_badge(merchant: Merchant) -> Markup:
    """The merchant's status as a badge, in the words that say what it waits for (a merchant
    waiting for documents reads so, not "Details being sent")."""
    return badge(merchant.status,
                 text=shown_words(merchant.status, merchant.documents_outstanding or []))


def register(app: Flask) -> None:
    """Make ``label`` a filter and ``badge`` and ``status_badge`` globals of every template."""
    app.add_template_filter(label, "label")
    app.add_template_global(badge, "badge")
    app.add_template_global(status_badge, "status_badge")
    app.add_template_global(label, "label")
