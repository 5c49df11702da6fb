"""What a step's save or send tells the person: ``StepResult``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from portal.core.models.step import StepDraft
from portal.gateway.onboarding.reading import RecordAnswer
from portal.gateway.shapes import FieldError


@dataclass
class StepResult:
    """How a send went: ``errors`` use the gateway's field paths ('' = the whole step)."""

    ok: bool
    message: str = ""
    errors: list[FieldError] = field(default_factory=list)
    unavailable: bool = False
    #: The request may have reached the gateway but no answer came back.
    outcome_unknown: bool = False
    gid: str = ""
    #: When the step was queued for a later send: the time of the next attempt.
    queued_until: datetime | None = None
    #: When someone else saved the step first: their draft as now stored (nothing was saved).
    conflict: StepDraft | None = None
    #: The draft version this save produced (a re-shown form must carry it); None if unsaved.
    version: int | None = None
    #: Sent, but the answer asks for something more (a failed penny drop: a cancelled cheque).
    needs_follow_up: bool = False
    #: Sent (the gateway answered 2xx), but its answer could not be read: the status was read
    #: instead.
    answer_unreadable: bool = False
    #: The gateway asked us to slow down (HTTP 429): unavailable for now, never a refusal.
    rate_limited: bool = False
    #: Seconds the gateway asked us to wait before the next attempt (``Retry-After``), if any.
    retry_after: float | None = None
    #: Only advisory checks before sending stopped it: ops may send anyway.
    advisory_only: bool = False
    #: The gateway's answer to a send that went through.
    answer: RecordAnswer | None = None
