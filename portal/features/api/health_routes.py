"""The API's merchant health: can each product take payments now, and if not who must act, as
the merchant's page shows it (``portal.domain.health``)."""

from __future__ import annotations

from portal.domain.api.scopes import Scope
from portal.domain.health.service import health_of
from portal.features.api.merchant_routes import found_merchant
from portal.features.api.more_schemas import HealthLineOut, HealthOut
from portal.features.api.operations import Answer, Call, operation


@operation("/merchants/<int:merchant_id>/health", "GET", scope=Scope.READ_MERCHANTS,
           summary="A live merchant's health: each product, and any pause, in words",
           answer=HealthOut)
def read_health(call: Call, merchant_id: int) -> Answer:
    """The health lines, merchant-wide first; none while the merchant is still onboarding."""
    merchant = found_merchant(merchant_id)
    health = health_of(merchant)
    lines = [] if health is None else [
        HealthLineOut(subject=line.subject, product=line.product, ready=line.ready,
                      why=line.why, who=line.who.value if line.who else None, since=line.since,
                      action=line.action, sentence=line.sentence) for line in health.lines]
    return Answer(HealthOut(live=health is not None, status=merchant.status, lines=lines))
