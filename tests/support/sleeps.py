"""A stand-in for ``time.sleep`` that records the delays asked for and never waits."""

from __future__ import annotations


class SleepRecorder:
    """Stands in for time.sleep: records the delays, never sleeps."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
