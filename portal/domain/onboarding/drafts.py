"""How a step's draft is stored and versioned: one row per step, saved only at the version the
form was loaded at, so of two people saving the same step the second is told, never lost."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.step import StepDraft, StepState
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.outbox import queue
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.steps import Step

#: ``Session.info`` key: for the merchants whose every stored draft the session holds (read
#: together, or none stored: a merchant the session itself started), those drafts by step
#: key, kept referenced (the identity map's are weak); a step missing there has no draft.
ALL_HELD = "drafts_all_held"


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
    drafts = {row.step: row for row in rows}
    hold_all_drafts(merchant, drafts)
    return drafts


def hold_all_drafts(merchant: Merchant, drafts: dict[str, StepDraft] | None = None) -> None:
    """Note that ``drafts`` are every stored draft of ``merchant`` (none: the session started
    it), so no other is read for it until a rollback; a draft another session stores
    meanwhile is met at the flush, as a conflict, like two first saves racing."""
    db.session.info.setdefault(ALL_HELD, {})[merchant.id] = dict(drafts or {})


def find_draft(merchant: Merchant, step: Step) -> StepDraft | None:
    """The step's stored draft, if any: the one this session already holds (a page reads all
    of the merchant's drafts first, and a row of a bulk import once), else read."""
    every = db.session.info.get(ALL_HELD, {}).get(merchant.id)
    if every is not None:
        return every.get(step.key)
    held = _held_draft(merchant.id, step.key)
    if held is not None:
        return held  # (merchant, step) is unique: the row held is the row a read would give
    return db.session.scalar(select(StepDraft).where(StepDraft.merchant_id == merchant.id,
                                                     StepDraft.step == step.key))


@event.listens_for(Session, "after_soft_rollback")
def _forget_held(session: Session, _previous: object) -> None:
    """A rollback expires what the session held and drops the drafts it added."""
    session.info.pop(ALL_HELD, None)


def _held_draft(merchant_id: int, step_key: str) -> StepDraft | None:
    """The step's draft among the rows the session holds loaded and not marked for deletion
    (an expired row's values are not read, which would cost a SELECT each), if there."""
    for row in db.session.identity_map.values():
        loaded = inspect(row).dict
        if (isinstance(row, StepDraft) and loaded.get("merchant_id") == merchant_id
                and loaded.get("step") == step_key and row not in db.session.deleted):
            return row
    return None


def draft_for(merchant: Merchant, step: Step) -> StepDraft:
    """The step's draft, created empty (not yet flushed) when there is none."""
    draft = find_draft(merchant, step)
    if draft is None:
        draft = StepDraft(merchant_id=merchant.id, step=step.key, payload={}, last_error={},
                          state=StepState.DRAFT, version=0)
        db.session.add(draft)
        every = db.session.info.get(ALL_HELD, {}).get(merchant.id)
        if every is not None:
            every[step.key] = draft
    return draft


def save_draft(merchant: Merchant, step: Step, data: dict[str, Any],
               version: int | None = None, *, actor: Actor) -> StepDraft:
    """Store what was typed without sending it (see :func:`stage_draft`); commits."""
    draft = stage_draft(merchant, step, data, version, actor=actor)
    db.session.commit()
    return draft


def stage_draft(merchant: Merchant, step: Step, data: dict[str, Any],
                version: int | None = None, *, actor: Actor, flush: bool = True) -> StepDraft:
    """Write what was typed into the session (the step is then a draft again); no commit, so
    a send commits it with the body it sends, in one transaction.

    ``version`` is the draft version the form was loaded at (default: the one read now); if
    the stored draft moved on since, nothing is written and DraftConflict is raised. A send
    still queued for the step is superseded: older data is never sent after newer. With
    ``flush`` False a first draft stays in the session unwritten (a draft created meanwhile
    by someone else then fails the caller's flush).
    """
    draft = draft_for(merchant, step)
    created = draft.id is None
    typed: dict[str, Any] = {"payload": data, "updated_at": clock.utcnow()}
    if draft.state != StepState.LOCKED:
        typed |= {"state": StepState.DRAFT, "last_error": {}}
    try:
        _take_version(draft, draft.version if version is None else version, typed)
        if not created:  # only a stored draft can have a send queued (queue.enqueue)
            queue.supersede(merchant.id, step.key)
        merchant.touch()
        record("step.draft", merchant_id=merchant.id, detail={"step": step.key}, actor=actor)
        if flush or not created:
            db.session.flush()  # a draft created meanwhile by someone else fails here
    except IntegrityError:
        db.session.rollback()
        stored = find_draft(merchant, step) if created else None
        if stored is None:
            raise
        raise DraftConflict(stored) from None  # someone created the step's draft meanwhile
    return draft


def _take_version(draft: StepDraft, seen: int, values: dict[str, Any]) -> None:
    """Move the stored draft from version ``seen`` to the next with ``values``, or raise
    DraftConflict.

    The conditional UPDATE is the check and the write in one statement: it lands only while
    the row is still at ``seen``, and holds the row until the commit, so of two concurrent
    saves exactly one wins.
    """
    values = {**values, "version": seen + 1}
    if draft.id is None:
        for name, value in values.items():
            setattr(draft, name, value)
        return
    result = db.session.execute(
        update(StepDraft).where(StepDraft.id == draft.id, StepDraft.version == seen)
        .values(values),
        execution_options={"synchronize_session": False},
    )
    if result.rowcount != 1:
        db.session.rollback()
        db.session.refresh(draft)
        raise DraftConflict(draft)
    for name, value in values.items():
        set_committed_value(draft, name, value)


def draft_saved() -> StepResult:
    """The outcome of a draft that was stored."""
    return StepResult(True, "Draft saved; nothing was sent to the gateway.")


def conflict_result(exc: DraftConflict) -> StepResult:
    """The outcome of a save refused because someone else saved the step first."""
    at = exc.stored.updated_at.strftime("%Y-%m-%d %H:%M:%S UTC")
    return StepResult(False, f"Someone else saved this step at {at}, after you opened it. "
                      "Nothing of yours was saved: compare the changes below and save again "
                      "to keep what you typed.", conflict=exc.stored)
