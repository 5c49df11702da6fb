"""How a step's draft is stored and versioned: one row per step, saved only at the version the
form was loaded at, so of two people saving the same step the second is told, never lost."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from portal import clock
from portal.audit.service import record
from portal.db import db
from portal.models.merchant import Merchant
from portal.models.step import StepDraft, StepState
from portal.onboarding import queue
from portal.onboarding.result import StepResult
from portal.onboarding.steps import Step


class DraftConflict(Exception):
    """The step was saved by someone else since the form was loaded; nothing was written."""

    def __init__(self, stored: StepDraft) -> None:
        super().__init__(f"step {stored.step} is at version {stored.version}")
        self.stored = stored


def get_merchant(merchant_id: int) -> Merchant | None:
    """The merchant with this id, or None."""
    return db.session.get(Merchant, merchant_id)


def drafts_of(merchant: Merchant) -> dict[str, StepDraft]:
    """The merchant's step drafts by step key, in one query."""
    rows = db.session.scalars(select(StepDraft).where(StepDraft.merchant_id == merchant.id))
    return {row.step: row for row in rows}


def find_draft(merchant: Merchant, step: Step) -> StepDraft | None:
    """The step's stored draft, if any."""
    return db.session.scalar(select(StepDraft).where(StepDraft.merchant_id == merchant.id,
                                                     StepDraft.step == step.key))


def draft_for(merchant: Merchant, step: Step) -> StepDraft:
    """The step's draft, created empty (not yet flushed) when there is none."""
    draft = find_draft(merchant, step)
    if draft is None:
        draft = StepDraft(merchant_id=merchant.id, step=step.key, payload={}, last_error={},
                          state=StepState.DRAFT, version=0)
        db.session.add(draft)
    return draft


def save_draft(merchant: Merchant, step: Step, data: dict[str, Any],
               version: int | None = None) -> StepDraft:
    """Store what was typed without sending it (the step is then a draft again); commits.

    ``version`` is the draft version the form was loaded at (default: the one read now); if
    the stored draft moved on since, nothing is written and DraftConflict is raised. A send
    still queued for the step is superseded: older data is never sent after newer.
    """
    draft = draft_for(merchant, step)
    created = draft.id is None
    try:
        _take_version(draft, draft.version if version is None else version)
        queue.supersede(merchant.id, step.key)
        draft.payload = data
        if draft.state != StepState.LOCKED:
            draft.state = StepState.DRAFT
            draft.last_error = {}
        draft.updated_at = clock.utcnow()
        merchant.touch()
        record("step.draft", merchant_id=merchant.id, detail={"step": step.key})
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        stored = find_draft(merchant, step) if created else None
        if stored is None:
            raise
        raise DraftConflict(stored) from None  # someone created the step's draft meanwhile
    return draft


def _take_version(draft: StepDraft, seen: int) -> None:
    """Move the stored draft from version ``seen`` to the next, or raise DraftConflict.

    The conditional UPDATE is the check: it lands only while the row is still at ``seen``,
    and holds the row until the commit, so of two concurrent saves exactly one wins.
    """
    if draft.id is None:
        draft.version = seen + 1
        return
    result = db.session.execute(
        update(StepDraft).where(StepDraft.id == draft.id, StepDraft.version == seen)
        .values(version=seen + 1),
        execution_options={"synchronize_session": False},
    )
    if result.rowcount != 1:
        db.session.rollback()
        db.session.refresh(draft)
        raise DraftConflict(draft)
    set_committed_value(draft, "version", seen + 1)


def draft_saved() -> StepResult:
    """The outcome of a draft that was stored."""
    return StepResult(True, "Draft saved; nothing was sent to the gateway.")


def conflict_result(exc: DraftConflict) -> StepResult:
    """The outcome of a save refused because someone else saved the step first."""
    at = exc.stored.updated_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return StepResult(False, f"Someone else saved this step at {at}, after you opened it. "
                      "Nothing of yours was saved: compare the changes below and save again "
                      "to keep what you typed.", conflict=exc.stored)
