"""The portal's clock: every "now" goes through here so tests can move time instead of sleeping."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime


def system_now() -> datetime:
    """The wall-clock time in UTC."""
    return datetime.now(UTC)


#: Where ``utcnow`` reads the time; tests replace it (``monkeypatch``) to freeze or advance time.
source: Callable[[], datetime] = system_now


def utcnow() -> datetime:
    """The current time in UTC, as ``source`` tells it."""
    return source()
