"""Step 8's gateway link: when one may be asked for, minting it, and the last one minted.

The gateway's link is single-use (the verification page consumes its token on the first GET)
and lasts 24 hours, so every page that embeds it mints a fresh one just in time; each mint is
kept (minted_at, expires_at, for whom) for the audit trail and the page's expiry notice. Ops'
page, the merchant's own page and the API mint through :func:`mint_link`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusSource
from portal.core.models.step import StepState
from portal.core.models.verification import GatewayLink
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.drafts import draft_for
from portal.domain.onboarding.gateway_words import refusal_words
from portal.domain.onboarding.locks import verification_complete
from portal.domain.onboarding.progress import verification_missing
from portal.domain.onboarding.status_reads import read_status
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.errors import GatewayError, GatewayUnavailable, ValidationFailed
from portal.gateway.onboarding.client import OnboardingClient

#: How long the gateway's link lasts: its token is single-use and lasts 24 hours
#: (docs/gateway-contract.md, "Partner onboarding").
GATEWAY_LINK_LIFETIME = timedelta(hours=24)
OPS = "ops"
MERCHANT_LINK = "merchant link"
API = "api"

@dataclass(frozen=True)
class Gate:
    """Whether a verification link may be asked for, and if not, everything still missing."""

    missing: list[str]
    done: bool = False

    @property
    def open(self) -> bool:
        """True when a link may be asked for now."""
        return not self.missing and not self.done


@dataclass(frozen=True)
class Minted:
    """A minted link to embed, or why there is none (``missing``: the gateway's 400 items)."""

    url: str = ""
    link: GatewayLink | None = None
    missing: list[str] = field(default_factory=list)
    error: str = ""


def gate(merchant: Merchant) -> Gate:
    """The link gate, from the stored checklist: every item but the verification page's own
    done (a section that does not apply counts done), nothing outstanding."""
    if verification_complete(merchant):
        return Gate([], done=True)
    return Gate(verification_missing(merchant))


def mint_link(client: OnboardingClient, merchant: Merchant, callback_url: str, via: str,
              actor: Actor) -> Minted:
    """Ask the gateway for a fresh link whose page posts back to ``callback_url``, audited as
    ``actor``'s; commits."""
    try:
        data = client.get_verification_redirect(merchant.onboarding_id or "",
                                                {"callBackUrl": callback_url})
    except ValidationFailed as exc:
        missing = [f"{e.field}: {e.message}" if e.field else e.message
                   for e in exc.field_errors]
        _audit_refusal(merchant, "refused", exc, {"via": via, "missing": missing}, actor)
        return Minted(missing=missing or [exc.message])
    except GatewayUnavailable as exc:
        _audit_refusal(merchant, "unavailable", exc, {"via": via, "error": exc.message}, actor)
        return Minted(error="The gateway could not be reached for a verification link.")
    except GatewayError as exc:
        _audit_refusal(merchant, "refused", exc, {"via": via, "error": exc.message}, actor)
        return Minted(error=refusal_words(exc, merchant.onboarding_id or ""))
    now = clock.utcnow()
    link = GatewayLink(merchant_id=merchant.id, minted_at=now,
                       expires_at=now + GATEWAY_LINK_LIFETIME, via=via, gid=data.answer_gid)
    db.session.add(link)
    draft = draft_for(merchant, BY_KEY["verification"])
    if draft.state != StepState.SENT:
        draft.state = StepState.DRAFT
    record("verification.link", actor=actor, merchant_id=merchant.id, gid=data.answer_gid,
           detail={"via": via, "expiresAt": link.expires_at.isoformat()})
    db.session.commit()
    return Minted(url=data.redirectLink, link=link)


def _audit_refusal(merchant: Merchant, outcome: str, exc: GatewayError,
                   detail: dict[str, object], actor: Actor) -> None:
    record("verification.link", actor=actor, outcome=outcome, merchant_id=merchant.id,
           gid=exc.gid,
           detail=detail)
    db.session.commit()


def refresh_checklist(client: OnboardingClient, merchant: Merchant, actor: Actor) -> None:
    """Read the status before the page is drawn, so its progress is the gateway's: a person
    back from DigiLocker (opened outside the frame) sees it done, as the frame does. A failed
    read keeps what is stored; commits."""
    if merchant.onboarding_id and not verification_complete(merchant):
        read_status(client, merchant, StatusSource.VERIFICATION_PAGE, actor)
        db.session.commit()


def latest_link(merchant: Merchant) -> GatewayLink | None:
    """The link minted last for the merchant, if any."""
    return db.session.scalars(
        select(GatewayLink).where(GatewayLink.merchant_id == merchant.id)
        .order_by(GatewayLink.minted_at.desc(), GatewayLink.id.desc()).limit(1)).first()
