"""What every onboarding step's page shares, whichever feature draws it (the wizard, documents,
verification, status, the merchant's summary): the stepper's links and labels, and the sandbox's
scenario picker ("Fill every step" with one scenario's test data, kept for the merchant).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, request, url_for

from portal.core.config import current_settings
from portal.core.label_tables import TABLES, Kind
from portal.core.models.merchant import Merchant
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.steps import STEPS, Step, next_step
from portal.web.scenario_filling import chosen

#: Steps whose page is not the wizard's form page.
PAGE_ENDPOINTS = {"documents": "documents.step", "verification": "verification.page",
                  "status": "status.page"}
STATE_LABELS = TABLES[Kind.STEP_STATE]


def step_url(merchant: Merchant, step: Step) -> str:
    """The page of ``step`` for ``merchant``."""
    if step.key in PAGE_ENDPOINTS:
        return url_for(PAGE_ENDPOINTS[step.key], merchant_id=merchant.id)
    return url_for("wizard.step", merchant_id=merchant.id, step_key=step.key)


def sandbox_only() -> None:
    """404 unless the portal talks to the gateway sandbox (test data is for it alone)."""
    if not current_settings().gateway_is_sandbox:
        abort(404)


def chosen_scenario() -> str:
    """The scenario picked in the form; 404 when this is not a sandbox."""
    sandbox_only()
    scenario = request.form.get("scenario", "")
    if scenario not in scenarios.LABELS:
        abort(404)
    return scenario


def template_helpers() -> dict[str, Any]:
    """Names the stepper and the scenario picker use in every step's template."""
    return {
        "all_steps": STEPS,
        "state_labels": STATE_LABELS,
        "step_url": step_url,
        "next_step": next_step,
        "scenario_choices": scenarios.CHOICES if current_settings().gateway_is_sandbox
        else None,
        "scenario_of": chosen,
        "scenario_labels": scenarios.LABELS,
    }


def register(app: Flask) -> None:
    """Give every template the stepper's and the scenario picker's names."""
    app.context_processor(template_helpers)
