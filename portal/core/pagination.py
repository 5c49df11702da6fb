"""One page of a list: its rows and where it stands among the pages."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, TypeVar

Row = TypeVar("Row")


@dataclass(frozen=True)
class Page(Generic[Row]):
    """One page of matches out of ``total``; when ``capped``, there are more than ``total``
    matches and only the first ``total`` can be paged through."""

    rows: list[Row]
    total: int
    page: int
    per_page: int
    capped: bool = False

    @property
    def pages(self) -> int:
        """How many pages the matches fill (at least one)."""
        return max(1, math.ceil(self.total / self.per_page))


def clamped(page: int, total: int, per_page: int) -> int:
    """``page`` brought within the pages ``total`` rows fill (a page past the last is the last,
    one before the first the first)."""
    return min(max(page, 1), max(1, math.ceil(total / per_page)))
