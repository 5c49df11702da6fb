"""Who must act on what holds a merchant up, and a line of its health in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class Party(StrEnum):
    """Who must act next."""

    US = "us"
    MERCHANT = "the merchant"
    GATEWAY = "the gateway"


def day(moment: datetime) -> str:
    """A date as people write it: '3 Nov 2026'."""
    return f"{moment.day} {moment:%b %Y}"


@dataclass(frozen=True)
class HealthLine:
    """One product (or the whole merchant): whether it can take payments now, and if not why,
    who must act, since when, and the one thing to do."""

    subject: str
    ready: bool
    why: str
    who: Party | None = None
    since: datetime | None = None
    action: str = ""
    #: The step-7 product it is about ('' for the merchant as a whole).
    product: str = ""

    @property
    def sentence(self) -> str:
        """The line in words: 'International cards: not yet, waiting for the merchant since
        3 Nov 2026'."""
        if self.ready:
            since = f" since {day(self.since)}" if self.since else ""
            return f"{self.subject}: yes, takes payments{since}"
        waiting = f", waiting for {self.who.value}" if self.who else ""
        since = f" since {day(self.since)}" if self.since else ""
        return f"{self.subject}: not yet{waiting}{since}"


@dataclass(frozen=True)
class Health:
    """A merchant's health: its lines, the merchant-wide ones first."""

    lines: list[HealthLine]

    @property
    def open(self) -> list[HealthLine]:
        """The lines that cannot take payments now."""
        return [line for line in self.lines if not line.ready]
