"""The one clock design: a controllable :class:`Clock`, read by the portal and the sandbox alike.

Every "now" in the portal goes through :func:`utcnow`, which reads the :data:`current` clock, so
tests move time (freeze, advance, or put a clock of their own in its place) instead of sleeping.
The sandbox gives each app its own ``Clock``, moved by ``POST /_sandbox/clock``.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta


def system_now() -> datetime:
    """The wall-clock time in UTC, whatever any clock says (for file names, not for rules)."""
    return datetime.now(UTC)


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
            return system_now() + self._offset

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

    def reset(self) -> datetime:
        """Back to the wall clock: no offset, not frozen; the new time."""
        with self._lock:
            self._offset = timedelta(0)
            self._frozen = None
        return self.now()

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``: a running clock waits them out; a frozen one (a test's) returns at
        once, since its time moves only when the test moves it."""
        with self._lock:
            if self._frozen is not None:
                return
        time.sleep(seconds)

    def offset(self) -> timedelta | None:
        """How far the clock runs ahead of the wall clock (behind: negative); None when frozen."""
        with self._lock:
            return None if self._frozen is not None else self._offset


#: The portal's clock: real time until a test freezes or advances it, or puts its own in place.
current = Clock()


def utcnow() -> datetime:
    """The current time in UTC on the portal's clock."""
    return current.now()


def pause(seconds: float) -> None:
    """Wait ``seconds`` on the portal's clock (a gateway retry's backoff): the :data:`current`
    clock at the time of the wait decides how, so a test's clock spares the wall-clock wait."""
    current.sleep(seconds)
