"""What the wizard's buttons do with a step: save its draft, send it, send it again.

Step 1 goes through its own state machine (:mod:`portal.domain.onboarding.create`); every other step
is a draft (:mod:`portal.domain.onboarding.drafts`) sent as it is
(:mod:`portal.domain.onboarding.sending`). Each function takes plain arguments and commits its own
unit of work.
"""

from __future__ import annotations

from typing import Any

from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.onboarding import create
from portal.domain.onboarding.drafts import (
    DraftConflict,
    conflict_result,
    draft_for,
    draft_saved,
    save_draft,
    stage_draft,
)
from portal.domain.onboarding.locks import lock_reason, locked_because
from portal.domain.onboarding.outbox import queue
from portal.domain.onboarding.reopened import apply_reopened
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.sending import send_draft
from portal.domain.onboarding.steps import Step
from portal.gateway.onboarding.client import OnboardingClient


def save_step_draft(merchant: Merchant, step: Step, data: dict[str, Any],
                    version: int | None = None, *, actor: Actor) -> StepResult:
    """Save any step's draft, credited to ``actor``; step 1's identity fields are checked
    first."""
    try:
        if step.creates_record:
            errors = create.save_create_draft(merchant, data, version, actor=actor)
            if errors:
                return StepResult(False, "The draft could not be saved.", errors)
        else:
            save_draft(merchant, step, data, version, actor=actor)
    except DraftConflict as exc:
        return conflict_result(exc)
    return draft_saved()


def send_step(client: OnboardingClient, merchant: Merchant, step: Step,
              data: dict[str, Any], version: int | None = None, *,
              actor: Actor, store_first: bool = True,
              accept_advisory: bool = False) -> StepResult:
    """Keep the draft, validate it like the gateway does, send it and store the answer.

    Two commits: the draft with the body about to be sent, then the answer (see sending).
    With ``store_first`` False (a bulk import's row: its import keeps what it sends, and a
    row taken over sends it again) a step without a stored draft is stored with its answer,
    in one commit. ``accept_advisory``: ops chose to send anyway past the advisory checks.
    The audit entries are ``actor``'s.
    """
    try:
        if step.creates_record:
            errors = create.stage_create_draft(merchant, data, version, actor=actor)
            if errors:
                return StepResult(False, "The draft could not be saved.",
                                  create.with_send_errors(step, data, errors))
            return create.send_create(client, merchant, actor=actor,
                                      accept_advisory=accept_advisory)
        reason = lock_reason(merchant, step)
        if reason:
            return StepResult(False, reason)
        draft = stage_draft(merchant, step, data, version, actor=actor, flush=store_first)
    except DraftConflict as exc:
        return conflict_result(exc)
    return _applying(merchant, step, send_draft(
        client, merchant, step, draft, actor=actor, store_first=store_first,
        accept_advisory=accept_advisory), actor)


def send_saved(client: OnboardingClient, merchant: Merchant, step: Step, *,
               actor: Actor) -> StepResult:
    """Send the stored draft again (the Retry button after the gateway was unreachable)."""
    if step.creates_record:
        return create.retry_create(client, merchant, actor=actor)
    draft = draft_for(merchant, step)
    reason = lock_reason(merchant, step)
    if reason:
        return StepResult(False, reason)
    queue.supersede(merchant.id, step.key)  # this send replaces the one queued, if any
    return _applying(merchant, step, send_draft(client, merchant, step, draft, actor=actor),
                     actor)


def _applying(merchant: Merchant, step: Step, result: StepResult, actor: Actor) -> StepResult:
    """``result``; once a locked step is sent, the change request it was open again for is
    done."""
    if result.ok and locked_because(merchant, step):
        apply_reopened(merchant, step.key, actor)
    return result
