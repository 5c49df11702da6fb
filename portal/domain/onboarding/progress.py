"""Where a merchant's onboarding stands: the stepper's state of each step, the steps the
gateway's checklist still counts to do, and the penny drop's verdict on the bank account in
words."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.labels import document_label
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepDraft, StepState
from portal.core.onboarding_statuses import FINAL_STATUSES
from portal.domain.onboarding.locks import lock_reason
from portal.domain.onboarding.steps import BY_KEY, STEPS, Step
from portal.gateway.onboarding.checklist_words import checklist_done, not_applicable
from portal.gateway.onboarding.vocabulary import OnboardingStatus, PennyDropStatus

#: The document the gateway asks for when the penny drop could not verify the bank account.
CANCELLED_CHEQUE = "CANCELLED_CHEQUE"
#: Step 1's state in the stepper follows the create's own state, not its draft's.
CREATE_STATES = {CreateState.OUTCOME_UNKNOWN: StepState.NEEDS_ATTENTION,
                 CreateState.NEEDS_RECONCILE: StepState.NEEDS_ATTENTION,
                 CreateState.CREATED: StepState.SENT}


@dataclass(frozen=True)
class StepStatus:
    """One stepper entry."""

    step: Step
    state: str
    lock_reason: str | None = None


def stepper(merchant: Merchant, drafts: dict[str, StepDraft]) -> list[StepStatus]:
    """Every step's state for the stepper: locks from the stored checklist come first."""
    entries = []
    for step in STEPS:
        draft = drafts.get(step.key)
        reason = lock_reason(merchant, step) if step.available else None
        created = CREATE_STATES.get(merchant.create_state) if step.creates_record else None
        if created is not None:
            state = created
        elif reason or (draft is not None and draft.state == StepState.LOCKED):
            state = StepState.LOCKED
            reason = reason or (draft.lock_reason if draft else None)
        else:
            state = draft.state if draft is not None else StepState.NOT_STARTED
        if state != StepState.SENT and not_needed(merchant, step):
            state = StepState.NOT_NEEDED  # a lock's reason stays: the page is read-only then
        if step.checks_account and state == StepState.SENT and cheque_needed(merchant):
            state = StepState.NEEDS_ATTENTION
        if step.key == "status" and merchant.status == OnboardingStatus.REJECTED:
            state = StepState.NEEDS_ATTENTION  # a rejection is no success to colour green
        if step.key == "documents" and asks_for_documents(merchant):
            state, reason = StepState.NEEDS_ATTENTION, None  # the review asks for an upload
        entries.append(StepStatus(step, state, reason))
    return entries


def not_needed(merchant: Merchant, step: Step) -> bool:
    """The gateway's checklist says ``step`` does not apply to the merchant (an individual's
    beneficial owners)."""
    return step.checklist_key is not None and not_applicable(
        merchant.checklist.get(step.checklist_key))


def steps_to_do(merchant: Merchant) -> list[Step]:
    """The steps whose checklist item the gateway does not count done yet. The verification
    page's own items (T&C, DigiLocker, video KYC) are no step's: they are done in that page,
    so they never hold its link back."""
    return [step for step in STEPS if step.checklist_key
            and not checklist_done(merchant.checklist.get(step.checklist_key))]


def verification_missing(merchant: Merchant) -> list[str]:
    """What a verification link still waits for, in words: step 1 not sent yet, or the steps
    the gateway's checklist counts to do and the documents it still asks for."""
    if not merchant.onboarding_id:
        return [f"{BY_KEY['create'].title} (step 1): not sent to the gateway yet"]
    missing = [f"{step.title} (step {step.number})" for step in steps_to_do(merchant)]
    return missing + [f"Document: {document_label(doc)}" for doc in merchant.documents_outstanding]


def asks_for_documents(merchant: Merchant) -> bool:
    """The review asked for more information (RFI) and names documents to upload: the
    documents step takes them, though verification locked it otherwise."""
    return merchant.status == OnboardingStatus.RFI and bool(merchant.documents_outstanding)


def documents_asked(merchant: Merchant) -> bool:
    """The gateway asks the merchant for documents now (its outstanding list, the review's
    requests included) and the onboarding is not final: the merchant's link takes them."""
    return (bool(merchant.onboarding_id) and bool(merchant.documents_outstanding)
            and merchant.status not in FINAL_STATUSES)


def cheque_needed(merchant: Merchant) -> bool:
    """The penny drop failed and the cancelled cheque it calls for is not uploaded yet."""
    return (merchant.penny_drop_status == PennyDropStatus.FAILED
            and CANCELLED_CHEQUE in merchant.documents_outstanding)


def penny_drop_outcome(merchant: Merchant) -> str:
    """What a bank details send found out, in words: the name at the bank, or what is needed."""
    if merchant.penny_drop_status == PennyDropStatus.VERIFIED:
        name = f" The bank knows the account holder as '{merchant.name_at_bank}'." \
            if merchant.name_at_bank else ""
        return ("Bank details sent to the gateway. The penny drop verified the account: "
                f"the bank confirmed it.{name}")
    return ("Bank details sent to the gateway, but the penny drop failed: the bank could not "
            "verify the account, so a cancelled cheque is now needed. Upload it in step 6 "
            "(Documents), or correct the bank details and send them again.")
