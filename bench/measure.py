"""Timing helpers and the result table shared by every benchmark."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from flask import Flask
from sqlalchemy import event

from portal.core.db import db


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


def floor_row(name: str, value: float, baseline: float, unit: str, limit: float) -> Row:
    """A row whose target is ``value / baseline >= limit`` (throughput)."""
    met = baseline > 0 and value / baseline >= limit
    return Row(name, value, baseline, unit, f">= {limit}x", met)


def info_row(name: str, value: float, baseline: float, unit: str) -> Row:
    """A row reported without a target."""
    return Row(name, value, baseline, unit, "-", None)


def paired(first: Callable[[], object], second: Callable[[], object],
           samples: int) -> tuple[list[float], list[float]]:
    """Seconds per call of each, timed in alternation so drift and noise hit both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(samples):
        for fn, out in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return times


def percentile(samples: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``samples``, nearest rank."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Collect the SQL statements the app's engine runs inside the block."""
    seen: list[str] = []

    def count(_conn, _cursor, statement: str, *_args) -> None:
        seen.append(statement)

    with _listening(app, "before_cursor_execute", count):
        yield seen


@contextmanager
def commits(app: Flask) -> Iterator[list[float]]:
    """Collect the COMMITs the app's engine makes inside the block (the time of each)."""
    made: list[float] = []

    def count(_conn) -> None:
        made.append(time.perf_counter())

    with _listening(app, "commit", count):
        yield made


@contextmanager
def _listening(app: Flask, name: str, listener: Callable[..., None]) -> Iterator[None]:
    engine = db.engine(app)
    event.listen(engine, name, listener)
    try:
        yield
    finally:
        event.remove(engine, name, listener)
