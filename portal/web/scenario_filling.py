"""Sandbox only: fill every step of a merchant with one scenario's test data, and keep that
scenario with the merchant so every step's page offers it until someone chooses another.

One scenario for the whole merchant matters: the sandbox decides the review by the business
details (an RFI name), the penny drop by the bank details. Filling one step at a time with
whatever the picker showed could turn an RFI chosen on step 1 into an approval on step 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepState
from portal.domain.audit.service import Actor
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.create import EXTERNAL_ID_FIELD, stage_create_draft
from portal.domain.onboarding.drafts import drafts_of, stage_draft
from portal.domain.onboarding.progress import stepper
from portal.domain.onboarding.steps import Step

#: Step 1's fields that are the record's identity: an identity already typed is kept.
IDENTITY_FIELDS = (EXTERNAL_ID_FIELD, "panNumber")


def chosen(merchant: Merchant | None) -> str:
    """The scenario kept for ``merchant`` (the happy path until one is chosen)."""
    kept = merchant.sandbox_scenario if merchant is not None else None
    return kept if kept in scenarios.LABELS else scenarios.HAPPY


@dataclass(frozen=True)
class Planned:
    """A step the fill would change: its test data, what it stores now and its state."""

    step: Step
    data: dict[str, Any]
    stored: dict[str, Any]
    state: str


def planned_fill(merchant: Merchant, scenario: str) -> list[Planned]:
    """The steps filling with ``scenario`` would change: those that can still change, are
    needed (the gateway's checklist) and do not hold that data already (step 1 keeps an
    identity already typed)."""
    drafts = drafts_of(merchant)
    planned = []
    for entry in stepper(merchant, drafts):
        step = entry.step
        if step.request is None or entry.state in (StepState.LOCKED, StepState.NOT_NEEDED) or (
                step.creates_record and merchant.create_state != CreateState.DRAFT):
            continue
        data = scenarios.form_data(scenario, step.key, merchant.pan or "")
        stored = drafts[step.key].payload if step.key in drafts else {}
        if step.creates_record:
            data |= {name: stored[name] for name in IDENTITY_FIELDS if stored.get(name)}
        if not same_data(step, data, stored):
            planned.append(Planned(step, data, stored, entry.state))
    return planned


def replaced_by_fill(merchant: Merchant, scenario: str) -> list[str]:
    """What filling with ``scenario`` would replace, a sentence per step that holds values:
    a saved draft, or values sent to the gateway (they become a draft to send again)."""
    replaced = []
    for plan in planned_fill(merchant, scenario):
        if not any(value not in (None, "", [], {}) for value in plan.stored.values()):
            continue
        what = ("the values sent to the gateway (they become a draft to send again)"
                if plan.state == StepState.SENT else "the saved draft")
        replaced.append(f"Step {plan.step.number}, {plan.step.title.lower()}: {what}")
    return replaced


def fill_every_step(merchant: Merchant, scenario: str, actor: Actor) -> list[Step]:
    """Keep ``scenario`` for ``merchant`` and store its test data as the draft of every step
    :func:`planned_fill` names (a step sent with other data becomes a draft to send again),
    credited to ``actor``; the steps filled. One transaction, committed: a step saved by
    someone else meanwhile raises DraftConflict and nothing is kept."""
    merchant.sandbox_scenario = scenario
    filled = []
    for plan in planned_fill(merchant, scenario):
        if plan.step.creates_record:
            if stage_create_draft(merchant, plan.data, actor=actor):
                continue  # its identity cannot be stored (nothing was written): left as it is
        else:
            stage_draft(merchant, plan.step, plan.data, actor=actor)
        filled.append(plan.step)
    db.session.commit()
    return filled


def filled_message(scenario: str, filled: list[Step]) -> str:
    """What the page says after filling: which steps, and what to do next."""
    name = scenarios.LABELS[scenario]
    if not filled:
        return (f"Every step that can still change already holds the test data for '{name}'. "
                "The scenario stays chosen for this merchant.")
    numbers = [str(step.number) for step in filled]
    steps = f"steps {', '.join(numbers[:-1])} and {numbers[-1]}" if len(numbers) > 1 \
        else f"step {numbers[0]}"
    return (f"Filled {steps} with the test data for '{name}'. Nothing is sent yet: send each "
            "step in turn with 'Save and send'. The scenario stays chosen for this merchant "
            "until you choose another.")


def same_data(step: Step, data: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Whether a step's stored draft already holds ``data``: the same body to send (the form
    stores blanks the test data leaves out); step 1 also compares its portal-only name."""
    assert step.request is not None
    if step.creates_record:
        return data == stored
    return bool(stored) and step.request(data) == step.request(stored)
