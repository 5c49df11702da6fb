"""Waits that take no wall time: a stand-in for ``time.sleep`` that records the delays asked
for, and the suite's portal clock, on which a wait returns at once."""

from __future__ import annotations

from portal.core.clock import Clock


class SleepRecorder:
    """Stands in for time.sleep: records the delays, never sleeps."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


class WaitlessClock(Clock):
    """The portal's clock in the suite: real time, but a wait on it (a gateway retry's backoff,
    ``portal.core.clock.pause``) returns at once, as on a frozen clock."""

    def sleep(self, seconds: float) -> None:
        """Return at once: the test's time is the wall clock's, and no test waits on it."""
