"""The verification page's steps: which one is current, and what pressing a button does.

The steps follow the record, not the session, so a new link resumes where the last one stopped:
T&C, then DigiLocker consent, then video KYC (which may fail and be tried again), then done.
A button of any other step than the current one changes nothing.

A record whose business name (registeredName, else tradeName) contains ``REDIRECT`` gets the
page as the gateway's iframe docs show it (docs/gateway-facts.md A7): no STEP messages, DigiLocker
opened outside the frame (the page posts a REDIRECT message with the DigiLocker page's URL;
that page sends the person back to the callBackUrl), and completion posted as the bare string.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.events import MessageName, StepName
from portal.sandbox.common.errors import ApiError
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.verification.messages import verification_message as message


class Step(StrEnum):
    """The step the page shows."""

    TNC = "TNC"
    DIGILOCKER = "DIGILOCKER"
    VKYC = "VKYC"
    DONE = "DONE"


class Action(StrEnum):
    """The ``action`` value of the page's buttons."""

    TNC = "tnc"
    DIGILOCKER = "digilocker"
    VKYC_SUCCESS = "vkyc-pass"
    VKYC_FAIL = "vkyc-fail"
    CLOSE = "close"


@dataclass(frozen=True)
class Confirmation:
    """A checkbox a step needs ticked: its field name and the message when it is not."""

    name: str
    message: str


#: The word in a business name that makes the verification page speak the iframe docs' dialect.
OUTSIDE_FRAME_MARKER = "REDIRECT"
#: The value a ticked confirmation checkbox posts.
TICKED = "yes"
STEP_OF: dict[Action, Step] = {Action.TNC: Step.TNC, Action.DIGILOCKER: Step.DIGILOCKER,
                               Action.VKYC_SUCCESS: Step.VKYC, Action.VKYC_FAIL: Step.VKYC}
CONFIRMATIONS: dict[Action, Confirmation] = {
    Action.TNC: Confirmation("accept", "Tick the box to accept the terms and conditions"),
    Action.DIGILOCKER: Confirmation("consent", "Tick the box to give your DigiLocker consent"),
}
RUN: dict[Action, Callable[[OnboardingBackend, str], None]] = {
    Action.TNC: OnboardingBackend.acknowledge_tnc,
    Action.DIGILOCKER: OnboardingBackend.complete_digilocker,
    Action.VKYC_SUCCESS: OnboardingBackend.complete_verification,
    Action.VKYC_FAIL: OnboardingBackend.fail_vkyc,
}


@dataclass(frozen=True)
class PageState:
    """What the page shows: the current step, whether the last video KYC failed, and whether
    DigiLocker runs outside the frame (the iframe docs' dialect)."""

    onboarding_id: str
    step: Step
    vkyc_failed: bool
    digilocker_outside: bool = False


@dataclass(frozen=True)
class Outcome:
    """What a button press did: messages for the parent, errors by field, the HTTP status."""

    messages: list[dict[str, Any] | str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)
    status: int = 200


def page_state(backend: OnboardingBackend, onboarding_id: str) -> PageState:
    """The page's state from the record's checklist."""
    checklist = backend.verification_checklist(onboarding_id)
    if checklist.vkyc == ChecklistState.COMPLETE:
        step = Step.DONE
    elif checklist.digiLocker == ChecklistState.COMPLETE:
        step = Step.VKYC
    elif checklist.tncAcknowledged == ChecklistState.COMPLETE:
        step = Step.DIGILOCKER
    else:
        step = Step.TNC
    outside = OUTSIDE_FRAME_MARKER in backend.business_name(onboarding_id).upper()
    return PageState(onboarding_id, step, checklist.vkyc == ChecklistState.FAILED, outside)


def messages_after(action: Action, onboarding_id: str,
                   digilocker_outside: bool = False) -> list[dict[str, Any] | str]:
    """The messages a successful ``action`` posts to the parent window."""
    if digilocker_outside:  # the iframe docs' dialect: the bare string at the end, nothing else
        return [str(MessageName.COMPLETE)] if action is Action.VKYC_SUCCESS else []
    if action is Action.VKYC_SUCCESS:
        return [message(MessageName.STEP, onboarding_id, StepName.VKYC),
                message(MessageName.COMPLETE, onboarding_id)]
    if action is Action.VKYC_FAIL:
        return []
    return [message(MessageName.STEP, onboarding_id, StepName(STEP_OF[action]))]


def perform(backend: OnboardingBackend, onboarding_id: str, action_name: str,
            form: Mapping[str, str]) -> Outcome:
    """Carry out one step's button (CLOSE is the session's business, not the record's)."""
    try:
        action = Action(action_name)
    except ValueError:
        return Outcome(errors={"action": "Choose one of the buttons"}, status=400)
    state = page_state(backend, onboarding_id)
    if STEP_OF.get(action) is not state.step:
        return Outcome(errors={"action": "That step is not the current one"}, status=409)
    confirmation = CONFIRMATIONS.get(action)
    if confirmation is not None and form.get(confirmation.name) != TICKED:
        return Outcome(errors={confirmation.name: confirmation.message}, status=400)
    try:
        RUN[action](backend, onboarding_id)
    except ApiError as error:
        details = "; ".join(e.message for e in error.field_errors or [])
        return Outcome(errors={"action": f"This step cannot be completed now: {details}"},
                       status=409)
    return Outcome(messages=messages_after(action, onboarding_id, state.digilocker_outside))
