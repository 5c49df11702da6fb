"""The API's steps 2 to 7 (documents aside): a draft saved, or saved and sent, through the
onboarding service the wizard's buttons call, with its locks, versions and outbox."""

from __future__ import annotations

from portal.core.clients import current_onboarding_client
from portal.domain.api.scopes import Scope
from portal.domain.onboarding.drafts import find_draft
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.service import save_step_draft, send_step
from portal.domain.onboarding.steps import BY_KEY, Step
from portal.features.api.merchant_routes import found_merchant
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.features.api.representations import merchant_out
from portal.features.api.schemas import StepBody, StepOut

#: The steps the API saves and sends: step 1 is POST /merchants, documents are files.
API_STEPS = tuple(key for key, step in BY_KEY.items()
                  if step.available and not step.creates_record and key != "documents")
STEP_RULE = "/merchants/<int:merchant_id>/steps/<any(" + ", ".join(API_STEPS) + "):step_key>"


def _answer(merchant_id: int, step: Step, result: StepResult) -> Answer:
    if result.conflict is not None:
        raise Problem(409, result.message + f" (the stored draft is version "
                                            f"{result.conflict.version})")
    if not (result.ok or result.queued_until):
        raise Problem(503 if result.unavailable else 422, result.message or "Refused.",
                      result.errors)
    merchant = found_merchant(merchant_id)
    stored = find_draft(merchant, step)
    return Answer(StepOut(step=step.key, message=result.message,
                          version=stored.version if stored is not None else None,
                          merchant=merchant_out(merchant)), 202 if result.queued_until else 200)


@operation(STEP_RULE + "/draft", "PUT", scope=Scope.WRITE_MERCHANTS,
           summary="Save a step's draft (nothing is sent)", answer=StepOut, body=StepBody)
def save_draft(call: Call, merchant_id: int, step_key: str) -> Answer:
    """Save the draft, as the step page's Save draft button does."""
    merchant, step, body = found_merchant(merchant_id), BY_KEY[step_key], StepBody(**call.body)
    result = save_step_draft(merchant, step, body.data, body.version, actor=call.actor)
    return _answer(merchant_id, step, result)


@operation(STEP_RULE + "/send", "POST", scope=Scope.WRITE_MERCHANTS,
           summary="Save a step and send it to the gateway", answer=StepOut, body=StepBody)
def send(call: Call, merchant_id: int, step_key: str) -> Answer:
    """Save and send, as the step page's Save and send button does; 202 when queued."""
    merchant, step, body = found_merchant(merchant_id), BY_KEY[step_key], StepBody(**call.body)
    result = send_step(current_onboarding_client(), merchant, step, body.data, body.version,
                       actor=call.actor)
    return _answer(merchant_id, step, result)
