"""A pause or a deactivation as a line of the merchant's health: who stopped it and why."""

from __future__ import annotations

from portal.core.models.merchant import Merchant
from portal.core.models.merchant_stop import MerchantStop, StopKind
from portal.domain.health.parties import HealthLine, Party
from portal.domain.pausing.reasons import KIND_WORDS, reason_words
from portal.domain.pausing.stops import open_stops

SUBJECT = "New payments"


def stop_line(stop: MerchantStop) -> HealthLine:
    """One open stop's line: stopped since when, by whom and why; an admin lifts it."""
    kind = StopKind(stop.kind)
    note = f" ({stop.note})" if stop.note else ""
    return HealthLine(SUBJECT, ready=False, who=Party.US, since=stop.at,
                      why=f"{KIND_WORDS[kind]} by {stop.by_name}: "
                          f"{reason_words(stop.kind, stop.reason)}{note}",
                      action="An admin lifts it on the Pause or deactivate page once its "
                             "reason is settled; existing holds can still be captured or "
                             "released meanwhile.")


def stop_lines(merchant: Merchant) -> list[HealthLine]:
    """A line for each open pause or deactivation, oldest first."""
    return [stop_line(stop) for stop in open_stops(merchant)]
