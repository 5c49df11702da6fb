"""Applying what the gateway says about a merchant: its record, checklist and status.

Every answer that describes the merchant ends here: a step's send (:func:`apply_answer`, or
:func:`apply_record` for the status read that stands in for an answer it could not read), a
status read from the page, the sync or a webhook (:func:`apply_status_read`), and a lost
create once reconciled. Nothing else writes the gateway's record onto the merchant.
"""

from __future__ import annotations

import json
from typing import Any

from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.core.models.step import StepState
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.drafts import draft_for, find_draft
from portal.domain.onboarding.locks import verification_complete
from portal.domain.onboarding.merchant_facts import confirm_ids
from portal.domain.onboarding.status_history import RANK, change_status, is_final, may_move
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.answers import MerchantData
from portal.gateway.onboarding.checklist_words import checklist_done
from portal.gateway.onboarding.reading import RecordAnswer
from portal.gateway.onboarding.vocabulary import OnboardingStatus, PennyDropStatus

#: The most of the review's ``rfiDetails`` kept: characters of its compact JSON.
RFI_DETAILS_LIMIT = 8 * 1024


def apply_answer(merchant: Merchant, answer: RecordAnswer, *,
                 actor: Actor) -> None:
    """Store what a step's send answered: the record when the answer carried it (status,
    checklist, outstanding documents, penny drop), else what its short answer said (the
    penny drop); no commit."""
    if answer.record is not None:
        apply_record(merchant, answer.record, actor=actor)
        return
    merchant.onboarding_id = merchant.onboarding_id or answer.onboarding_id or None
    if answer.penny_drop is not None:
        _keep_penny_drop(merchant, answer.penny_drop, answer.name_at_bank)
    merchant.touch()


def apply_record(merchant: Merchant, data: MerchantData, *,
                 actor: Actor) -> None:
    """Store the record a send's answer carried (or the status read just after a send): the
    newest word on the record, so it may move the status back (a change that leaves something
    outstanding); a status name the portal does not know moves nothing; no commit."""
    merchant.onboarding_id = merchant.onboarding_id or data.merchantInfo.onboardingId
    store_record(merchant, data)
    change_status(merchant, data.merchantInfo.status, StatusSource.STEP_SEND, data.answer_gid,
                  actor=actor)
    merchant.touch()


def apply_status_read(merchant: Merchant, data: MerchantData, source: str, *,
                      actor: Actor) -> bool:
    """Apply a read unless it is behind what the portal knows; True if the status moved; no
    commit.

    A read at the same status still refreshes the checklist (T&C, DigiLocker, documents) and
    what the review asks for (``rfiDetails``).
    Status names of the gateway's other pages (UNDER_REVIEW, ACCEPTED, ...) count as the
    contract's status they stand for; a name the portal does not know is stored and shown,
    and the status stays where it was.
    """
    info = data.merchantInfo
    new = info.status
    gid = data.answer_gid
    if new is None:
        record("status.read", actor=actor, outcome="unknown status", merchant_id=merchant.id,
               gid=gid,
               detail={"source": source, "known": merchant.status or "",
                       "read": info.reported_status})
    elif new != merchant.status and not may_move(merchant.status, new):
        record("status.read", actor=actor, outcome="stale", merchant_id=merchant.id, gid=gid,
               detail={"source": source, "known": merchant.status or "",
                       "read": info.reported_status})
        return False
    before = (merchant.checklist, merchant.documents_outstanding)
    store_record(merchant, data)
    keep_rfi_details(merchant, data.rfiDetails)
    moved = change_status(merchant, new, source, gid, actor=actor) if new is not None else False
    if (merchant.checklist, merchant.documents_outstanding) != before:
        merchant.touch()
    _mark_late_steps(merchant)
    confirm_ids(merchant, actor)  # ids a verified event named before the read approved it
    return moved


def store_record(merchant: Merchant, data: MerchantData) -> None:
    """Store the gateway's record and checklist, everything but the status; no commit."""
    info = data.merchantInfo
    merchant.gateway_status = info.reported_status[:64] or merchant.gateway_status
    checklist = data.merchantOnboardingCheckListStatus.model_dump(mode="json")
    merchant.documents_outstanding = list(checklist.pop("documentsToBeUploaded", []))
    merchant.checklist = checklist
    settlement = info.settlementDetails
    if settlement is not None and settlement.pennyDropStatus is not None:
        _keep_penny_drop(merchant, settlement.pennyDropStatus, settlement.nameAtBank)
    if info.businessDetails is not None and info.businessDetails.registeredName:
        merchant.legal_name = info.businessDetails.registeredName
    _sync_documents_step(merchant)


def keep_rfi_details(merchant: Merchant, details: Any) -> None:
    """Keep what a status read says the review asks for (``rfiDetails``) as sent, replacing
    what an earlier read said (none: nothing asked any more); when its JSON is longer than
    RFI_DETAILS_LIMIT, its text's beginning, marked cut. No commit."""
    text = json.dumps(details, ensure_ascii=False, separators=(",", ":"))
    cut = details is not None and len(text) > RFI_DETAILS_LIMIT
    merchant.rfi_details = text[:RFI_DETAILS_LIMIT] if cut else details
    merchant.rfi_details_cut = cut


def _keep_penny_drop(merchant: Merchant, outcome: PennyDropStatus,
                     name_at_bank: str | None) -> None:
    merchant.penny_drop_status = outcome
    merchant.name_at_bank = name_at_bank


def _sync_documents_step(merchant: Merchant) -> None:
    """The documents step is done when the gateway's checklist says so."""
    step = BY_KEY["documents"]
    complete = checklist_done(merchant.checklist.get("documents"))
    draft = find_draft(merchant, step)
    if draft is None and complete:
        draft = draft_for(merchant, step)
    if draft is None or draft.state == StepState.LOCKED:
        return
    if complete:
        draft.state = StepState.SENT
    elif draft.state == StepState.SENT:
        draft.state = StepState.DRAFT


def _mark_late_steps(merchant: Merchant) -> None:
    """Steps 8 and 9 in the stepper follow the status: verified, needs attention, final."""
    if verification_complete(merchant):
        _set_step(merchant, "verification", StepState.SENT)
    if is_final(merchant.status):
        _set_step(merchant, "status", StepState.SENT)
    elif merchant.status == OnboardingStatus.RFI:
        _set_step(merchant, "status", StepState.NEEDS_ATTENTION)
    elif RANK.get(merchant.status or "", 0) >= RANK[OnboardingStatus.PENDING_REVIEW]:
        _set_step(merchant, "status", StepState.DRAFT)


def _set_step(merchant: Merchant, key: str, state: StepState) -> None:
    draft_for(merchant, BY_KEY[key]).state = state
