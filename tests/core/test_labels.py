"""The one table of labels: every code a page shows has words, and the words hide no secret."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import pytest

from portal.core import label_tables, labels
from portal.core.labels import Kind, badge, label, status_group
from portal.core.models.document import DocumentStatus
from portal.core.models.merchant import CreateState
from portal.core.models.status_change import StatusSource
from portal.core.models.step import StepState
from portal.domain.onboarding import reconcile
from portal.domain.onboarding.steps import STEPS
from portal.domain.payments.service import CAPTURE, REFUND, REVERSE
from portal.features.admin.sentences import audit_sentence
from portal.features.merchants import removal
from portal.gateway.onboarding.answers import Checklist
from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.vocabulary import (
    DOCUMENT_TYPES,
    STATUS_ALIASES,
    AccountType,
    CardNetwork,
    EntityType,
    FeeType,
    OnboardingStatus,
    PennyDropStatus,
    Product,
)
from portal.gateway.payments.words import PaymentStatus

ENUMS: list[tuple[type[StrEnum], Kind]] = [
    (OnboardingStatus, Kind.STATUS), (ChecklistState, Kind.CHECKLIST_STATE),
    (Product, Kind.PRODUCT), (CardNetwork, Kind.CARD_NETWORK), (FeeType, Kind.FEE_TYPE),
    (EntityType, Kind.ENTITY_TYPE), (AccountType, Kind.ACCOUNT_TYPE),
    (PennyDropStatus, Kind.PENNY_DROP), (PaymentStatus, Kind.PAYMENT_STATUS),
    (DocumentStatus, Kind.DOCUMENT_STATUS), (CreateState, Kind.CREATE_STATE),
    (StepState, Kind.STEP_STATE), (StatusSource, Kind.STATUS_SOURCE),
]


@pytest.mark.parametrize(("enum", "kind"), ENUMS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_every_enum_member_has_a_label_in_words(enum, kind):
    for member in enum:
        words = label(member, kind)
        assert member.value in label_tables.TABLES[kind], member
        assert "_" not in words, member
        assert words[0].isupper(), words


def test_every_checklist_item_document_type_and_status_name_has_a_label():
    assert set(Checklist.model_fields) <= set(label_tables.TABLES[Kind.CHECKLIST_ITEM])
    assert set(DOCUMENT_TYPES) <= set(label_tables.TABLES[Kind.DOCUMENT])
    assert set(STATUS_ALIASES) <= set(label_tables.TABLES[Kind.STATUS])
    assert label("tncAcknowledged", Kind.CHECKLIST_ITEM) == "Terms and conditions"
    assert label("PENDING_VERIFICATION") == "Pending verification"
    assert label("DOMESTIC_CARDS_UPI_AND_INB", Kind.PRODUCT) == (
        "Domestic cards, UPI and net banking")


def test_every_step_send_is_an_audit_action_in_words():
    for step in STEPS:
        if step.available:
            assert f"step.send.{step.key}" in label_tables.TABLES[Kind.AUDIT_ACTION]


def test_an_owners_aadhaar_names_the_owner_and_masks_the_pan():
    words = label("BCDPM5678L_VIKRAM_MEHTA_AADHAR", Kind.DOCUMENT)
    assert words == "Aadhaar of Vikram Mehta (PAN ******678L)"
    assert "BCDPM5678L" not in words


def test_a_code_without_a_label_is_shown_as_it_is_and_no_status_reads_not_created():
    assert label("SOMETHING_NEW") == "SOMETHING_NEW"
    assert label(None) == label("") == "Not created yet"


@pytest.mark.parametrize(("code", "group"), [
    ("APPROVED", "success"), ("ACCEPTED", "success"), ("RFI", "warning"),
    ("PENDING_VERIFICATION", "warning"), ("REJECTED", "danger"), ("IN_PROGRESS", "neutral"),
    (None, "neutral"), ("ISSUER_DECLINE", "danger"), ("COMPLETE", "success"),
])
def test_badges_are_coloured_by_group(code, group):
    assert status_group(code) == group
    assert f'class="badge badge--{group}"' in badge(code)


def test_a_badge_escapes_what_it_shows():
    html = str(badge("<b>", text="<i>"))
    assert "<b>" not in html and "<i>" not in html


@pytest.mark.parametrize(("args", "sentence"), [
    (("asha@example.com", "ops", "step.send.business", "ok", "Lotus Traders"),
     "asha@example.com (ops) sent business details for Lotus Traders."),
    (("asha@example.com", "ops", "step.send.create", "refused", "Lotus Traders"),
     "asha@example.com (ops) created Lotus Traders at the gateway — refused."),
    (("webhook", None, "status.change", "ok", "Lotus Traders", {"to": "RFI"}),
     "Webhook moved Lotus Traders to “More information requested”."),
    (("asha@example.com", "ops", "step.draft", "ok", "Lotus Traders", {"step": "bank"}),
     "asha@example.com (ops) saved a draft of bank details for Lotus Traders."),
    (("anonymous", None, "user.login", "failed", None), "Anonymous signed in — failed."),
    (("system", None, "brand.new", "ok", None), "System did brand.new."),
    (("API key Stayhub", None, "api.call", "refused", None),
     "API key Stayhub called the API — refused."),
    (("admin@example.com", "admin", "mail_template.update", "ok", None,
      {"template": "merchant_link", "language": "hi"}),
     "admin@example.com (admin) edited an email's text in Hindi."),
    (("admin@example.com", "admin", "mail_template.restore", "ok", None,
      {"template": "owner_notice", "language": "en"}),
     "admin@example.com (admin) restored an email's built-in text in English."),
    (("admin@example.com", "admin", "mail_template.update", "ok", None,
      {"template": "merchant_link"}),  # recorded before each language had its own text
     "admin@example.com (admin) edited an email's text in every language."),
])
def test_an_audit_event_reads_as_a_sentence(args, sentence):
    assert audit_sentence(*args) == sentence


def test_every_audited_action_has_words():
    """Each action name the portal records (a literal, a step send or a payment action)."""
    source = "\n".join(p.read_text() for p in Path(labels.__file__).parents[1].rglob("*.py")
                       if "sandbox" not in p.parts)
    recorded = set(re.findall(r'record\(\s*"([a-z_.]+)"', source))
    recorded |= {reconcile.ACTION, removal.ACTION,
                 *(f"payment.{a}" for a in (CAPTURE, REVERSE, REFUND))}
    assert len(recorded) > 30
    assert recorded - set(label_tables.TABLES[Kind.AUDIT_ACTION]) == set()
