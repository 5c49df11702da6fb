"""The served sandbox's ticker runs the backend's due work, and survives a failing tick."""

from __future__ import annotations

import threading

from portal.sandbox.verification.ticker import start_ticker


class FlakyTarget:
    """Fails its first tick; sets ``ticked_again`` on its third."""

    def __init__(self) -> None:
        self.calls = 0
        self.ticked_again = threading.Event()

    def tick(self) -> None:
        """Count the tick; the first one fails."""
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("simulated tick failure")
        if self.calls >= 3:
            self.ticked_again.set()


def test_ticker_keeps_ticking_after_a_failure(caplog):
    target = FlakyTarget()
    stop = start_ticker(target, interval=0.01)
    try:
        assert target.ticked_again.wait(5)
    finally:
        stop.set()
    assert "Sandbox tick failed" in caplog.text

