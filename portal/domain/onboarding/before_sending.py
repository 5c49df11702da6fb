"""The checks before sending (:mod:`portal.domain.before_send.checks`) applied to one send:
what the merchant's other steps tell them, and which of their findings stop the send."""

from __future__ import annotations

from typing import Any

from portal.core.models.merchant import Merchant
from portal.domain.before_send.checks import Facts, Finding, findings
from portal.domain.onboarding.drafts import find_draft
from portal.domain.onboarding.steps import BY_KEY, Step


def facts_of(merchant: Merchant, step: Step, body: Any) -> Facts:
    """The merchant's PAN and entity type: the body's own when it carries them, else the
    merchant's record and its business step's draft, else the entity type chosen before step
    1 to list what it will need."""
    pan = getattr(body, "panNumber", None) or merchant.pan or ""
    entity = getattr(body, "entityType", None)
    if entity is None and merchant.id is not None:
        business = find_draft(merchant, BY_KEY["business"])
        entity = (business.payload.get("entityType") or None) if business else None
    entity = entity or (merchant.requirement_choice or {}).get("entityType") or None
    return Facts(pan, entity)


def checked(merchant: Merchant, step: Step, body: Any,
            accept_advisory: bool) -> tuple[list[Finding], list[Finding]]:
    """The findings that stop the send, and the advisory ones ``accept_advisory`` lets
    through (ops chose to send anyway)."""
    found = findings(step.key, body, facts_of(merchant, step, body))
    accepted = [f for f in found if f.advisory and accept_advisory]
    return [f for f in found if f not in accepted], accepted
