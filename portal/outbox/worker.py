"""The outbox's part of each background sync pass."""

from __future__ import annotations

from dataclasses import dataclass, field

from portal.gateway.onboarding_client import OnboardingClient
from portal.onboarding.reconcile import reconcile_from_webhooks
from portal.outbox.drain import DrainReport, drain


@dataclass
class CatchUpReport:
    """What one pass linked and sent."""

    reconciled: int = 0
    drained: DrainReport = field(default_factory=DrainReport)

    def summary(self) -> str:
        """One line for the log."""
        return f"{self.drained.summary()}; {self.reconciled} lost creates reconciled"


def catch_up(client: OnboardingClient) -> CatchUpReport:
    """Link lost creates named by webhooks, then send every queued step that is due; commits."""
    reconciled = reconcile_from_webhooks(client)
    return CatchUpReport(reconciled, drain(client))
