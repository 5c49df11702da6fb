"""How an audit event reads: one sentence per event, for the audit page and exports (the
entries themselves are read by :mod:`portal.domain.audit.trail`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select

from portal.core.db import db
from portal.core.label_tables import TABLES, Kind
from portal.core.labels import label
from portal.core.languages import BY_CODE
from portal.core.models.audit import AuditEvent
from portal.core.models.user import User
from portal.domain.audit.trail import EventMerchant
from portal.domain.onboarding.steps import BY_KEY

#: Who did it, for actors that are not users, where the label alone does not read well.
ACTOR_WORDS = {"merchant link": "The merchant", "customer link": "The customer"}
#: What each placeholder of a verb says when the event does not tell (a list of actions).
ANY = {"merchant": "a merchant", "to": "a status", "step": "a step", "email": "a user",
       "language": "a language"}
#: The language of an email edited before each language had its own text: all of them.
EVERY_LANGUAGE = "every language"


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
        actor, actor[:1].upper() + actor[1:])
    verb = TABLES[Kind.AUDIT_ACTION].get(action, f"did {action}")
    step = BY_KEY.get(str(detail.get("step", "")))
    fills = {"merchant": merchant or ANY["merchant"], "to": label(detail.get("to")),
             "step": step.title.lower() if step else ANY["step"],
             "email": str(detail.get("email") or ANY["email"]),
             "language": _language_words(detail.get("language"))}
    named = "{merchant}" in verb
    for name, words in fills.items():
        verb = verb.replace("{" + name + "}", words)
    if merchant and not named:
        verb = f"{verb} for {merchant}"
    ending = "" if outcome == "ok" else f" — {label(outcome, Kind.OUTCOME)}"
    return f"{who} {verb}{ending}."


def _language_words(code: object) -> str:
    """The language an event names, in English; an email's edit that names none was for
    every language."""
    if not code:
        return EVERY_LANGUAGE
    language = BY_CODE.get(str(code))
    return language.english_name if language else str(code)


def event_sentences(events: list[AuditEvent],
                    merchants: dict[int, EventMerchant]) -> dict[int, str]:
    """Each event as a sentence naming its actor's role and its merchant (``merchants``, from
    :func:`event_merchants`): one statement."""
    user_ids = {e.actor_id for e in events if e.actor_id is not None}
    roles = {row.id: row.role for row in db.session.execute(
        select(User.id, User.role).where(User.id.in_(user_ids)))} if user_ids else {}
    return {e.id: audit_sentence(
        e.actor_label, roles.get(e.actor_id) if e.actor_id is not None else None, e.action,
        e.outcome, merchants[e.id].name if e.id in merchants else None, e.detail)
        for e in events}
