"""A controllable clock: real time plus an offset that tests (and rehearsals) can move."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta


class Clock:
    """Wall-clock time shifted by an adjustable offset; ``freeze`` stops it at one instant."""

    def __init__(self, start: datetime | None = None) -> None:
        self._lock = threading.Lock()
        self._offset = timedelta(0)
        self._frozen: datetime | None = start

    def now(self) -> datetime:
        """The current time in UTC."""
        with self._lock:
            if self._frozen is not None:
                return self._frozen
            return datetime.now(UTC) + self._offset

    def now_ms(self) -> int:
        """The current time as epoch milliseconds."""
        return int(self.now().timestamp() * 1000)

    def advance(self, seconds: float) -> datetime:
        """Move the clock forward and return the new time."""
        with self._lock:
            if self._frozen is not None:
                self._frozen += timedelta(seconds=seconds)
            else:
                self._offset += timedelta(seconds=seconds)
        return self.now()

    def freeze(self, at: datetime | None = None) -> None:
        """Stop the clock at ``at`` (default: now)."""
        moment = at or self.now()
        with self._lock:
            self._frozen = moment
