"""A merchant's health as the pages show it: nothing before it is live, else a line for each
pause or deactivation (``stops``) and one per product (``products``); the banner shows its open
lines."""

from __future__ import annotations

from portal.core.models.merchant import Merchant
from portal.domain.health.parties import Health
from portal.domain.health.products import product_lines
from portal.domain.health.stops import stop_lines
from portal.domain.onboarding.product_approvals import acceptances
from portal.gateway.onboarding.vocabulary import OnboardingStatus


def is_live(merchant: Merchant) -> bool:
    """Whether the merchant is past onboarding: approved, or accepted for any product."""
    return merchant.status == OnboardingStatus.APPROVED or (
        merchant.status != OnboardingStatus.REJECTED and bool(acceptances(merchant)))


def health_of(merchant: Merchant) -> Health | None:
    """The merchant's health, or None while it is not live (its onboarding pages say where it
    stands then)."""
    stopped = stop_lines(merchant)
    if not stopped and not is_live(merchant):
        return None
    return Health(stopped + product_lines(merchant))
