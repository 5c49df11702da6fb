"""How an audit event reads: one sentence per event, for the audit page and exports."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from portal.label_tables import TABLES, Kind
from portal.labels import label
from portal.onboarding.steps import BY_KEY

#: Who did it, for actors that are not users, where the label alone does not read well.
ACTOR_WORDS = {"merchant link": "The merchant", "customer link": "The customer"}
#: What each placeholder of a verb says when the event does not tell (a list of actions).
ANY = {"merchant": "a merchant", "to": "a status", "step": "a step", "email": "a user"}


def action_words(action: str) -> str:
    """An action in words without a particular event: 'Deactivated a user'."""
    verb = TABLES[Kind.AUDIT_ACTION].get(action, action)
    for name, words in ANY.items():
        verb = verb.replace("{" + name + "}", words)
    return verb[:1].upper() + verb[1:]


def audit_sentence(actor: str, role: str | None, action: str, outcome: str,
                   merchant: str | None, detail: Mapping[str, Any] | None = None) -> str:
    """An audit event as a sentence: 'asha@example.com (ops) sent bank details for Lotus
    Traders.', with the outcome after a dash when it was not ok."""
    detail = detail or {}
    who = f"{actor} ({role})" if role else actor if "@" in actor else ACTOR_WORDS.get(
        actor, actor.capitalize())
    verb = TABLES[Kind.AUDIT_ACTION].get(action, f"did {action}")
    step = BY_KEY.get(str(detail.get("step", "")))
    fills = {"merchant": merchant or ANY["merchant"], "to": label(detail.get("to")),
             "step": step.title.lower() if step else ANY["step"],
             "email": str(detail.get("email") or ANY["email"])}
    named = "{merchant}" in verb
    for name, words in fills.items():
        verb = verb.replace("{" + name + "}", words)
    if merchant and not named:
        verb = f"{verb} for {merchant}"
    ending = "" if outcome == "ok" else f" — {label(outcome, Kind.OUTCOME)}"
    return f"{who} {verb}{ending}."
