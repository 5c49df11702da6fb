"""Linking a merchant whose create answer was lost to its record at the gateway, once proven.

The contract has no lookup by externalOnboardingId and the "already used" refusal does not
carry the onboardingId, so the id comes from elsewhere (gateway support, or a webhook that
names it). Either way the status read decides: the record's partnerOnboardingId must be our
externalOnboardingId, else nothing changes.
"""

from __future__ import annotations

import re

from sqlalchemy import select, update

from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.webhook_event import WebhookEvent
from portal.domain.audit.service import WEBHOOK, Actor, record
from portal.domain.onboarding.drafts import draft_for
from portal.domain.onboarding.gateway_record import apply_record
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.sending import mark_sent
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.errors import GatewayError, GatewayUnavailable
from portal.gateway.onboarding.answers import MerchantData
from portal.gateway.onboarding.client import OnboardingClient

#: Create states in which the record may exist at the gateway without the portal knowing it.
AWAITING = (CreateState.OUTCOME_UNKNOWN, CreateState.NEEDS_RECONCILE)
ACTION = "merchant.reconcile"
_ONBOARDING_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def reconcile(client: OnboardingClient, merchant: Merchant, onboarding_id: str,
              actor: Actor) -> StepResult:
    """Link ``merchant`` to the record ``actor`` (someone of ops) names, if its status read
    proves it ours; commits."""
    onboarding_id = onboarding_id.strip()
    problem = _problem(merchant, onboarding_id)
    if problem is None:
        try:
            data = client.get_status(onboarding_id)
        except GatewayUnavailable as exc:
            problem = f"The gateway could not be reached ({exc.message}); try again later."
        except GatewayError:
            problem = f"The gateway has no record {onboarding_id} for this partner."
        else:
            return link(merchant, onboarding_id, data, "ops", actor)
    return _refuse(merchant, onboarding_id, problem, "ops", actor)


def reconcile_from_webhooks(client: OnboardingClient) -> int:
    """Link awaiting merchants to records named by stored webhooks; returns how many; commits.

    Only events received since the oldest awaiting merchant was started, naming an onboarding
    id no merchant holds, are read; a record that is not one of ours is left alone.
    """
    awaiting = {m.external_onboarding_id: m for m in db.session.scalars(
        select(Merchant).where(Merchant.create_state.in_(AWAITING)))}
    if not awaiting:
        return 0
    since = min(m.created_at for m in awaiting.values())
    known = select(Merchant.onboarding_id).where(Merchant.onboarding_id.is_not(None))
    candidates = list(db.session.scalars(
        select(WebhookEvent.onboarding_id).distinct()
        .where(WebhookEvent.onboarding_id != "", WebhookEvent.received_at >= since,
               WebhookEvent.onboarding_id.not_in(known))))
    linked = 0
    for onboarding_id in candidates:
        try:
            data = client.get_status(onboarding_id)
        except GatewayError:
            continue  # read again on the next pass
        merchant = awaiting.pop(data.merchantInfo.partnerOnboardingId or "", None)
        if merchant is not None and link(merchant, onboarding_id, data, "webhook", WEBHOOK).ok:
            linked += 1
    return linked


def link(merchant: Merchant, onboarding_id: str, data: MerchantData, via: str,
         actor: Actor) -> StepResult:
    """Link when the read record is ours (partnerOnboardingId = our id); audited as ``actor``'s
    (named ``via``: ops, or a webhook); commits."""
    gid = data.answer_gid
    owner = data.merchantInfo.partnerOnboardingId or ""
    if owner != merchant.external_onboarding_id:
        return _refuse(merchant, onboarding_id,
                       f"The record {onboarding_id} belongs to partnerOnboardingId "
                       f"'{owner}', not '{merchant.external_onboarding_id}'.", via, actor)
    taken = db.session.execute(
        update(Merchant).where(Merchant.id == merchant.id, Merchant.onboarding_id.is_(None),
                               Merchant.create_state.in_(AWAITING))
        .values(onboarding_id=onboarding_id, create_state=CreateState.CREATED),
        execution_options={"synchronize_session": False},
    )
    if taken.rowcount != 1:
        db.session.rollback()
        return StepResult(False, "This merchant was reconciled already.")
    db.session.refresh(merchant)
    mark_sent(draft_for(merchant, BY_KEY["create"]), gid)
    apply_record(merchant, data, actor=actor)
    record(ACTION, actor=actor, merchant_id=merchant.id, gid=gid,
           detail={"onboardingId": onboarding_id, "via": via})
    db.session.commit()
    return StepResult(True, f"Reconciled: linked to the gateway's record {onboarding_id}, "
                      "whose partnerOnboardingId is ours. The onboarding continues.", gid=gid)


def _problem(merchant: Merchant, onboarding_id: str) -> str | None:
    """Why the id cannot even be checked, or None."""
    if merchant.create_state not in AWAITING:
        return "This merchant does not need reconciling."
    if not _ONBOARDING_ID.fullmatch(onboarding_id):
        return "An onboardingId is 1 to 64 letters, digits, '.', '_' or '-'."
    if db.session.scalar(select(Merchant.id).where(Merchant.onboarding_id == onboarding_id)):
        return f"Another merchant in the portal is linked to {onboarding_id}."
    return None


def _refuse(merchant: Merchant, onboarding_id: str, reason: str, via: str,
            actor: Actor) -> StepResult:
    """Audit a refused reconciliation; nothing else changes; commits."""
    message = f"Not reconciled: {reason} Nothing was changed."
    record(ACTION, actor=actor, outcome="refused", merchant_id=merchant.id,
           detail={"onboardingId": onboarding_id[:64], "via": via, "reason": reason[:200]})
    db.session.commit()
    return StepResult(False, message)
