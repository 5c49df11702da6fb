"""When a delivery that failed is tried again: the retry schedule, as data.

A delivery is tried at once, then after each wait of :data:`RETRY_SCHEDULE` in turn (about a
day and four hours in all); when the last try fails too it is failed for good.
"""

from __future__ import annotations

from datetime import timedelta

#: The wait before each try after the first: try n+2 comes RETRY_SCHEDULE[n] after try n+1.
RETRY_SCHEDULE: tuple[timedelta, ...] = (
    timedelta(seconds=5), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2),
    timedelta(hours=5), timedelta(hours=10), timedelta(hours=10))
#: Every try a delivery gets: the first and one per wait.
MAX_TRIES = len(RETRY_SCHEDULE) + 1


def wait_after(tries: int) -> timedelta | None:
    """The wait after the ``tries``-th try failed; None when no try is left."""
    if tries < 1 or tries > len(RETRY_SCHEDULE):
        return None
    return RETRY_SCHEDULE[tries - 1]


def in_words(wait: timedelta) -> str:
    """A wait as the pages and the docs say it: "5 seconds", "30 minutes", "10 hours"."""
    seconds = int(wait.total_seconds())
    for size, unit in ((3600, "hour"), (60, "minute"), (1, "second")):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} seconds"
