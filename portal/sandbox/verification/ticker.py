"""The served sandbox's ticker: runs the onboarding backend's due work (reviews, webhooks)."""

from __future__ import annotations

import logging
import threading
from typing import Protocol

log = logging.getLogger("portal.sandbox.ticker")

#: Seconds between two ticks of the served sandbox.
TICK_SECONDS = 0.5


class Tickable(Protocol):
    """Anything with due work to run now."""

    def tick(self) -> None:
        """Run what is due."""


def start_ticker(target: Tickable, interval: float = TICK_SECONDS) -> threading.Event:
    """Tick ``target`` every ``interval`` seconds in a daemon thread; set the event to stop."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(interval):
            try:
                target.tick()
            except Exception:  # a failed tick must not stop the next ones
                log.exception("Sandbox tick failed")

    threading.Thread(target=run, name="sandbox-ticker", daemon=True).start()
    return stop
