"""Step 1, creating the merchant at the gateway, and its state machine.

A merchant is started locally with an externalOnboardingId generated once and never changed.
The create is sent with that id: answered, it is CREATED (or stays a DRAFT when refused);
unanswered, its outcome is unknown (OUTCOME_UNKNOWN) and it may only be retried with the same
id. A retry refused as "id already used" means the first create landed: the merchant then
NEEDS_RECONCILE (:mod:`portal.domain.onboarding.reconcile`) and no create is ever sent again.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.drafts import draft_for, hold_all_drafts, stage_draft
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.sending import call_gateway
from portal.domain.onboarding.steps import BY_KEY, Step
from portal.gateway import rules
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.shapes import FieldError, validate_payload

EXTERNAL_ID_FIELD = "externalOnboardingId"
CREATE = BY_KEY["create"]


def new_external_id() -> str:
    """A fresh externalOnboardingId, generated once and stored before the create is sent."""
    return "pop-" + uuid.uuid4().hex


def start_merchant(data: dict[str, Any], sending: bool = False, *, actor: Actor,
                   commit: bool = True) -> tuple[Merchant | None, list[FieldError]]:
    """Create the local record for step 1 (nothing is sent); the external id must be free.
    A person who creates a merchant owns it (its work reaches their worklist); a command's or
    a job's merchant has no owner.

    When it is not and the user meant to send, every other field that could not be sent is
    named too, so one round trip shows all that needs correcting. With ``commit`` False the
    record and its draft stay in the session, for the create's send to commit them with the
    create it is about to send (a bulk import's row).
    """
    external_id = str(data.get(EXTERNAL_ID_FIELD) or "").strip()
    errors = _external_id_errors(external_id, None)
    if errors:
        return None, with_send_errors(CREATE, data, errors) if sending else errors
    merchant = Merchant(external_onboarding_id=external_id, pan="", checklist={},
                        documents_outstanding=[], owner_id=actor.id)
    _update_identity(merchant, data)
    db.session.add(merchant)
    db.session.flush()
    hold_all_drafts(merchant)  # it has none yet: none is looked for
    record("merchant.start", merchant_id=merchant.id, actor=actor,
           detail={"externalOnboardingId": external_id,
                   "owner": actor.label if actor.id is not None else "nobody"})
    stage_draft(merchant, CREATE, data, actor=actor, flush=False)
    if commit:
        db.session.commit()
    return merchant, []


def save_create_draft(merchant: Merchant, data: dict[str, Any], version: int | None = None,
                      *, actor: Actor) -> list[FieldError]:
    """Step 1's draft: the identity fields may change only until the create is sent; commits
    when saved."""
    errors = stage_create_draft(merchant, data, version, actor=actor)
    if not errors:
        db.session.commit()
    return errors


def stage_create_draft(merchant: Merchant, data: dict[str, Any], version: int | None = None,
                       *, actor: Actor) -> list[FieldError]:
    """Step 1's draft written into the session, unless its identity fields may not change
    (why not, else nothing); no commit (a send commits it with the create it sends)."""
    if merchant.create_state != CreateState.DRAFT:
        return [FieldError("", "The create was sent already; the id and the PAN are fixed.")]
    errors = _external_id_errors(str(data.get(EXTERNAL_ID_FIELD) or "").strip(), merchant)
    if errors:
        return errors
    _update_identity(merchant, data)
    stage_draft(merchant, CREATE, data, version, actor=actor)
    return []


def with_send_errors(step: Step, data: dict[str, Any],
                     errors: list[FieldError]) -> list[FieldError]:
    """``errors`` plus what a send of ``data`` would refuse in the fields they do not name."""
    assert step.request is not None
    _, refused = validate_payload(step.shape, step.request(data), each_field=True)
    named = {error.field for error in errors}
    return [*errors, *(error for error in refused if error.field not in named)]


def retry_create(client: OnboardingClient, merchant: Merchant, *,
                 actor: Actor) -> StepResult:
    """Send the create again with the same externalOnboardingId and PAN, never a new id."""
    if merchant.create_state not in (CreateState.DRAFT, CreateState.OUTCOME_UNKNOWN):
        return StepResult(False, "The create cannot be sent again for this record.")
    return send_create(client, merchant, actor=actor)


def send_create(client: OnboardingClient, merchant: Merchant, *,
                actor: Actor, accept_advisory: bool = False) -> StepResult:
    """Send the create with the stored id and PAN and move the state machine; commits.

    The state is OUTCOME_UNKNOWN when the request is stored before it is sent (so also if
    this process dies during the call) and stays so only when no answer came back.
    """
    draft = draft_for(merchant, CREATE)
    before = merchant.create_state
    body = {EXTERNAL_ID_FIELD: merchant.external_onboarding_id,
            "panNumber": merchant.pan or draft.payload.get("panNumber", "")}
    merchant.create_state = CreateState.OUTCOME_UNKNOWN
    result = call_gateway(client, merchant, CREATE, draft, body, actor=actor,
                          accept_advisory=accept_advisory)
    result.version = draft.version
    if result.ok:
        merchant.create_state = CreateState.CREATED
    elif not result.outcome_unknown:
        merchant.create_state = before  # answered, or never sent: nothing was created
    if (not result.ok and before == CreateState.OUTCOME_UNKNOWN
            and any(e.field == EXTERNAL_ID_FIELD for e in result.errors)):
        merchant.create_state = CreateState.NEEDS_RECONCILE
        result.message = reconcile_message(merchant)
    elif ((result.unavailable or result.outcome_unknown)
          and merchant.create_state == CreateState.OUTCOME_UNKNOWN):
        result.message = outcome_unknown_message(merchant)
    db.session.commit()
    return result


def outcome_unknown_message(merchant: Merchant) -> str:
    """Why the create may or may not have landed, and what to do."""
    return (f"The create for {merchant.external_onboarding_id} was sent but no answer came "
            "back: it may or may not have been created. Retry with the same id; the portal "
            "never sends a create under a new id.")


def reconcile_message(merchant: Merchant) -> str:
    """Why a merchant must be reconciled after the retry was refused as a reused id."""
    return (f"The gateway says the id {merchant.external_onboarding_id} is already used: the "
            "first create probably landed, but its answer was lost. The record must be "
            "reconciled (ask the gateway for the onboardingId of this partnerOnboardingId); "
            "the portal will not send another create.")


def _external_id_errors(external_id: str, merchant: Merchant | None) -> list[FieldError]:
    if not rules.EXTERNAL_ID_PATTERN.fullmatch(external_id):
        return [FieldError(EXTERNAL_ID_FIELD, rules.EXTERNAL_ID_MESSAGE)]
    taken = db.session.scalar(select(Merchant.id).where(
        Merchant.external_onboarding_id == external_id))
    if taken is not None and (merchant is None or taken != merchant.id):
        return [FieldError(EXTERNAL_ID_FIELD, "Another merchant in the portal uses this id")]
    return []


def _update_identity(merchant: Merchant, data: dict[str, Any]) -> None:
    merchant.external_onboarding_id = str(data.get(EXTERNAL_ID_FIELD) or "").strip()
    merchant.display_name = str(data.get("displayName") or "").strip()[:200]
    try:
        merchant.pan = rules.check_pan(str(data.get("panNumber") or ""))
    except ValueError:
        merchant.pan = ""

