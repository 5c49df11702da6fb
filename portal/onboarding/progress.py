"""Where a merchant's onboarding stands: the stepper's state of each step, and the penny
drop's verdict on the bank account in words."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepDraft, StepState
from portal.gateway.onboarding_shapes import OnboardingStatus, PennyDropStatus
from portal.onboarding.locks import lock_reason
from portal.onboarding.steps import STEPS, Step

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
        if step.checks_account and state == StepState.SENT and cheque_needed(merchant):
            state = StepState.NEEDS_ATTENTION
        if step.key == "status" and merchant.status == OnboardingStatus.REJECTED:
            state = StepState.NEEDS_ATTENTION  # a rejection is no success to colour green
        if step.key == "documents" and asks_for_documents(merchant):
            state, reason = StepState.NEEDS_ATTENTION, None  # the review asks for an upload
        entries.append(StepStatus(step, state, reason))
    return entries


def asks_for_documents(merchant: Merchant) -> bool:
    """The review asked for more information (RFI) and names documents to upload: the
    documents step takes them, though verification locked it otherwise."""
    return merchant.status == OnboardingStatus.RFI and bool(merchant.documents_outstanding)


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
