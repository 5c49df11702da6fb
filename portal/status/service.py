"""Reading the status from the gateway and applying it: only forward, always recorded.

Every way the portal learns of a status (the status page, the periodic sync, a webhook, the
verification page's completion message) ends here: a server-side ``get_status``, then
:func:`apply_status_read`. Nothing else ever moves the status from outside a step's send.
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.audit.service import record
from portal.gateway.errors import GatewayError
from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.onboarding_shapes import MerchantData, OnboardingStatus, known_status
from portal.models.merchant import Merchant
from portal.models.step import StepState
from portal.onboarding import service as onboarding
from portal.onboarding.locks import verification_complete
from portal.onboarding.steps import BY_KEY
from portal.status.history import RANK, change_status, is_final, may_move

#: What each status means, as pages say it.
LABELS = {
    OnboardingStatus.INITIATED: "Created, no details sent yet",
    OnboardingStatus.IN_PROGRESS: "Details being sent",
    OnboardingStatus.PENDING_VERIFICATION: "Waiting for the merchant's verification",
    OnboardingStatus.PENDING_REVIEW: "Verified, under compliance review",
    OnboardingStatus.RFI: "The review asks for more information",
    OnboardingStatus.APPROVED: "Approved",
    OnboardingStatus.REJECTED: "Rejected",
}


def describe(status: str | None) -> str:
    """A status with its meaning, e.g. 'PENDING_REVIEW (Verified, under compliance review)'."""
    if not status:
        return "not created at the gateway"
    label = LABELS.get(status)
    return f"{status} ({label})" if label else status


def gateway_name(merchant: Merchant) -> str:
    """What the page adds when the gateway named the status otherwise, or a name not known."""
    named = merchant.gateway_status
    if not named or named == merchant.status:
        return ""
    if known_status(named) is None:
        return (f"The gateway reports the status {named}, which the portal does not know; "
                f"it keeps the last status it knows, {describe(merchant.status)}.")
    return f"The gateway calls this status {named}."


@dataclass(frozen=True)
class StatusRead:
    """The outcome of one status read: what the gateway said and whether the record moved."""

    data: MerchantData | None
    moved: bool = False
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether the gateway answered."""
        return self.data is not None


def read_status(client: OnboardingClient, merchant: Merchant, source: str) -> StatusRead:
    """Read the status server-side and apply it; a failed read changes nothing; no commit."""
    if not merchant.onboarding_id:
        return StatusRead(None, error="The merchant is not created at the gateway yet.")
    try:
        data = client.get_status(merchant.onboarding_id)
    except GatewayError as exc:
        record("status.read", outcome="unavailable", merchant_id=merchant.id, gid=exc.gid,
               detail={"source": source, "error": exc.message})
        return StatusRead(None, error=str(exc.message))
    moved = apply_status_read(merchant, data, source, client.last_gid)
    return StatusRead(data, moved)


def apply_status_read(merchant: Merchant, data: MerchantData, source: str,
                      gid: str = "") -> bool:
    """Apply a read unless it is behind what the portal knows; True if the status moved.

    A read at the same status still refreshes the checklist (T&C, DigiLocker, documents).
    Status names of the gateway's other pages (UNDER_REVIEW, ACCEPTED, ...) count as the
    contract's status they stand for; a name the portal does not know is stored and shown,
    and the status stays where it was.
    """
    info = data.merchantInfo
    new = info.status
    if new is None:
        record("status.read", outcome="unknown status", merchant_id=merchant.id, gid=gid,
               detail={"source": source, "known": merchant.status or "",
                       "read": info.reported_status})
    elif new != merchant.status and not may_move(merchant.status, new):
        record("status.read", outcome="stale", merchant_id=merchant.id, gid=gid,
               detail={"source": source, "known": merchant.status or "",
                       "read": info.reported_status})
        return False
    before = (merchant.checklist, merchant.documents_outstanding)
    onboarding.store_record(merchant, data)
    moved = change_status(merchant, new, source, gid) if new is not None else False
    if (merchant.checklist, merchant.documents_outstanding) != before:
        merchant.touch()
    _mark_late_steps(merchant)
    return moved


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
    draft = onboarding.draft_for(merchant, BY_KEY[key])
    draft.state = state
