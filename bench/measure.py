"""Timing helpers and the result table shared by every benchmark."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    """One line of the table: a figure, its baseline, and the target on their ratio."""

    name: str
    value: float
    baseline: float
    unit: str
    target: str
    met: bool | None

    @property
    def ratio(self) -> float:
        """value / baseline."""
        return self.value / self.baseline if self.baseline else float("inf")


def per_call(fn: Callable[[], object], *, repeat: int = 7, min_seconds: float = 0.2) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` timed batches."""
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        if time.perf_counter() - start >= min_seconds / repeat or calls > 1_000_000:
            break
        calls *= 2
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def ratio_row(name: str, value: float, baseline: float, unit: str, limit: float) -> Row:
    """A row whose target is ``value / baseline <= limit``."""
    met = baseline > 0 and value / baseline <= limit
    return Row(name, value, baseline, unit, f"<= {limit}x", met)


def render(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| measurement | value | baseline | ratio | target | met |",
             "|---|---:|---:|---:|---|---|"]
    for row in rows:
        met = {True: "yes", False: "NO", None: "n/a"}[row.met]
        lines.append(f"| {row.name} | {row.value:.4g} {row.unit} | {row.baseline:.4g} {row.unit} "
                     f"| {row.ratio:.2f}x | {row.target} | {met} |")
    return "\n".join(lines)
