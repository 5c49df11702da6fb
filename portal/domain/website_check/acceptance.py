"""Ops accepting a gap of the website check with a note: kept with the check's result (who,
when, why), audited; an accepted gap no longer counts as what the gateway will likely ask for."""

from __future__ import annotations

from typing import Any

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor, record

#: The key of ``Merchant.website_check`` holding the accepted gaps: gap words -> who, when, why.
ACCEPTED = "accepted"


def accept_gap(merchant: Merchant, gap: str, note: str, *, actor: Actor) -> bool:
    """Accept ``gap`` (one of the last check's missing items, in its words) with ``note``,
    audited; commits. False (nothing kept) when the last check does not report that gap."""
    result = dict(merchant.website_check or {})
    if gap not in (result.get("missing") or []):
        return False
    accepted = dict(result.get(ACCEPTED) or {})
    accepted[gap] = {"by": actor.label, "note": note, "at": clock.utcnow().isoformat()}
    merchant.website_check = result | {ACCEPTED: accepted}
    record("merchant.website_gap_accepted", actor=actor, merchant_id=merchant.id,
           detail={"gap": gap, "note": note})
    db.session.commit()
    return True


def open_gaps(result: dict[str, Any]) -> list[str]:
    """What the check found missing and nobody accepted: what the gateway will likely ask for."""
    accepted = result.get(ACCEPTED) or {}
    return [gap for gap in result.get("missing") or [] if gap not in accepted]


def kept_acceptances(previous: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """``result`` of a new check with the acceptances of ``previous`` that still apply (the
    gaps it still reports)."""
    accepted = {gap: why for gap, why in (previous.get(ACCEPTED) or {}).items()
                if gap in (result.get("missing") or [])}
    return result | {ACCEPTED: accepted} if accepted else result
