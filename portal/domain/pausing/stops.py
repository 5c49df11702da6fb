"""Pausing new payments and deactivating a merchant, and lifting either: each with a reason
from the list and a note, audited. A pause refuses new holds and payment links (existing holds
are still captured and released); a deactivation also revokes the links nobody opened yet,
stops the merchant's reminders and starts its retention clock. Only an admin lifts a stop (the
page checks it)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import MerchantStop, StopKind
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.payment import ActionState, Payment
from portal.core.models.payment_link import LinkState, PaymentLink
from portal.domain.audit.service import Actor, record
from portal.domain.pausing.reasons import KIND_WORDS, OTHER, REASONS, reason_words

#: The audit's action names.
ACTIONS = {StopKind.PAUSE: "merchant.pause", StopKind.DEACTIVATE: "merchant.deactivate"}
LIFTED = "merchant.stop_lifted"


@dataclass(frozen=True)
class Outcome:
    """How a stop or a lift went, in words for the page; ``field`` names the form's field a
    refusal belongs to."""

    ok: bool
    message: str
    field: str = ""


def open_stops(merchant: Merchant) -> list[MerchantStop]:
    """The merchant's stops not lifted yet, oldest first."""
    return list(db.session.scalars(
        select(MerchantStop).where(MerchantStop.merchant_id == merchant.id,
                                   MerchantStop.lifted_at.is_(None)).order_by(MerchantStop.id)))


def _refusal(merchant: Merchant, kind: StopKind, reason: str, note: str) -> Outcome | None:
    if reason not in REASONS[kind]:
        return Outcome(False, "Choose a reason from the list.", "reason")
    if reason == OTHER and not note.strip():
        return Outcome(False, "Say the reason in the note.", "note")
    if any(stop.kind == kind for stop in open_stops(merchant)):
        return Outcome(False, f"This merchant is {KIND_WORDS[kind]} already.", "reason")
    return None


def stop(merchant: Merchant, kind: StopKind, reason: str, note: str, actor: Actor) -> Outcome:
    """Record a pause or a deactivation of ``merchant`` by ``actor``; audited; commits."""
    refused = _refusal(merchant, kind, reason, note)
    if refused:
        return refused
    now = clock.utcnow()
    db.session.commit()  # the UPDATE starts its own transaction: it waits for a hold's claim
    values = {"payments_stopped_at": func.coalesce(Merchant.payments_stopped_at, now)}
    if kind == StopKind.DEACTIVATE:
        values["deactivated_at"] = func.coalesce(Merchant.deactivated_at, now)
    db.session.execute(update(Merchant).where(Merchant.id == merchant.id).values(**values)
                       .execution_options(synchronize_session=False))
    row = MerchantStop(merchant_id=merchant.id, kind=kind, reason=reason, note=note.strip(),
                       at=now, by_id=actor.id, by_name=actor.label)
    db.session.add(row)
    db.session.flush()
    if merchant.owner_id != actor.id:  # the owner who paused it needs no notice of it
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.STOP, stop_id=row.id,
                                               by_user_id=actor.id))
    revoked = _revoke_links(merchant, actor, now) if kind == StopKind.DEACTIVATE else 0
    sending = _holds_on_the_way(merchant)
    record(ACTIONS[kind], actor=actor, merchant_id=merchant.id,
           detail={"reason": reason, "note": note.strip(), "linksRevoked": revoked,
                   "holdsOnTheWay": sending})
    db.session.commit()
    db.session.refresh(merchant)
    return Outcome(True, _done_words(merchant, kind, revoked, sending))


def _revoke_links(merchant: Merchant, actor: Actor, now) -> int:
    """Cancel the merchant's payment links nobody opened; how many."""
    payments = select(Payment.id).where(Payment.merchant_id == merchant.id)
    revoked = db.session.execute(
        update(PaymentLink).where(PaymentLink.payment_id.in_(payments),
                                  PaymentLink.state == LinkState.WAITING)
        .values(state=LinkState.CANCELLED, cancelled_at=now, cancelled_by_id=actor.id)
        .execution_options(synchronize_session=False))
    return revoked.rowcount


def _holds_on_the_way(merchant: Merchant) -> int:
    """Holds claimed before the stop whose initiate is still on its way to the gateway."""
    return db.session.scalar(select(func.count()).select_from(Payment).where(
        Payment.merchant_id == merchant.id, Payment.gid.is_(None),
        Payment.action_name == "initiate", Payment.action_state != ActionState.IDLE)) or 0


def _done_words(merchant: Merchant, kind: StopKind, revoked: int, sending: int) -> str:
    words = [f"{merchant.name} is {KIND_WORDS[kind]}: new holds and payment links are refused; "
             "existing holds can still be captured or released."]
    if kind == StopKind.DEACTIVATE:
        words.append(f"{revoked} unopened payment link{'' if revoked == 1 else 's'} revoked; "
                     "reminders stopped; the retention clock runs from today.")
    if sending:
        words.append(f"{sending} hold{' was' if sending == 1 else 's were'} already on the way "
                     "to the gateway before this; look at the payments list.")
    return " ".join(words)


def lift(merchant: Merchant, stop_id: int, note: str, actor: Actor) -> Outcome:
    """Lift an open stop of ``merchant`` (an admin's, the page checks); audited; commits."""
    row = db.session.get(MerchantStop, stop_id)
    if row is None or row.merchant_id != merchant.id or row.lifted_at is not None:
        return Outcome(False, "This pause or deactivation was lifted already.")
    row.lifted_at, row.lifted_by_name, row.lift_note = clock.utcnow(), actor.label, note.strip()
    db.session.flush()
    still = open_stops(merchant)
    merchant.payments_stopped_at = min((s.at for s in still), default=None)
    merchant.deactivated_at = next((s.at for s in still if s.kind == StopKind.DEACTIVATE), None)
    record(LIFTED, actor=actor, merchant_id=merchant.id,
           detail={"kind": row.kind, "reason": row.reason, "note": note.strip()})
    db.session.commit()
    if still:
        return Outcome(True, f"Lifted; {merchant.name} is still "
                             f"{KIND_WORDS[StopKind(still[0].kind)]}.")
    return Outcome(True, f"Lifted: {merchant.name} takes new payments again.")


def refusal_words(merchant: Merchant) -> str | None:
    """Why a stop refuses the merchant's new holds and links, in words for ops; None if none."""
    stops = open_stops(merchant)
    if not stops:
        return None
    first = next((s for s in stops if s.kind == StopKind.DEACTIVATE), stops[0])
    note = f" ({first.note})" if first.note else ""
    return (f"This merchant was {KIND_WORDS[StopKind(first.kind)]} on {first.at:%Y-%m-%d} by "
            f"{first.by_name}: {reason_words(first.kind, first.reason)}{note}. New holds and "
            "payment links are refused until an admin lifts it; existing holds can still be "
            "captured or released.")
