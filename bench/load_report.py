"""The load bench's rows: each page's p50, p95 and p99 under the crowd against the same page's
p50 for one person alone in the same run (the p95 held to at most 3x), how far that baseline
moved by the end, the requests that failed and how, what the portal's log says went wrong,
the database's check afterwards, and what else the machine was doing."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.load_check import Ledger, Tally
from bench.measure import Row, info_row, percentile, ratio_row

#: The most a page's p95 under the crowd may take, as a multiple of its p50 for one person.
P95_LIMIT = 3.0
#: The kinds of failure listed, most frequent first (the rest are in the total).
KINDS_SHOWN = 8
TRACEBACK = "Traceback (most recent call last):"
NUMBERS = re.compile(r"\d+")


@dataclass(frozen=True)
class Phase:
    """One Locust run: its requests ([page, ms, failure or None]) and how long it ran."""

    samples: list[list]
    seconds: float

    def pages(self) -> dict[str, list[float]]:
        """Every page's times, in the order each was first requested."""
        times: dict[str, list[float]] = {}
        for page, ms, _ in self.samples:
            times.setdefault(page, []).append(ms)
        return times

    def failures(self) -> Counter[str]:
        """How often each page failed in each way."""
        return Counter(f"{page}: {wrong}" for page, _, wrong in self.samples if wrong)


def server_errors(log: Path) -> Counter[str]:
    """The exceptions in a server's log, by their last line (numbers blanked, so one kind of
    error is counted once however its ids differ)."""
    found: Counter[str] = Counter()
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    for at, line in enumerate(lines):
        if TRACEBACK not in line:
            continue
        end = next((later for later in lines[at + 1:]
                    if later and not later.startswith((" ", "\t"))), "?")
        found[NUMBERS.sub("N", end.strip())[:110]] += 1
    return found


def latency_rows(title: str, alone: Phase, crowd: Phase) -> list[Row]:
    """p50, p95 (with its target) and p99 of every page under the crowd vs its p50 alone."""
    rows = []
    single = alone.pages()
    for page, times in {**{p: [] for p in single}, **crowd.pages()}.items():
        if not times:
            continue
        name = f"{title}: {page} ({len(times)} requests)"
        if page not in single:
            rows.append(Row(f"{name}, p95 (one person alone never opened it)",
                            percentile(times, 95), 0, "ms", f"<= {P95_LIMIT}x", None))
            continue
        base = percentile(single[page], 50)
        rows += [info_row(f"{name}, p50 vs 1-person p50", percentile(times, 50), base, "ms"),
                 ratio_row(f"{name}, p95 vs 1-person p50", percentile(times, 95), base, "ms",
                           P95_LIMIT),
                 info_row(f"{name}, p99 vs 1-person p50", percentile(times, 99), base, "ms")]
    return rows


@dataclass(frozen=True)
class Machine:
    """What else the machine did meanwhile: its 1-minute load average at the start and the
    end, and CPU seconds over the run: the whole machine's busy time, the bench's own
    processes' (the servers and Locust; PostgreSQL's server aside), Locust's alone, and the
    run's wall-clock seconds with the CPUs there are."""

    loads: tuple[float, float]
    busy: float
    ours: float
    locust: float
    wall: float
    cpus: int


def drift_row(title: str, before: Phase, after: Phase) -> Row:
    """One person alone after the crowd against before it: the median over the pages of
    their p50s' ratio. Far from 1, the machine's other work changed during the run, and the
    crowd's ratios are against a baseline that moved."""
    early, late = before.pages(), after.pages()
    ratios = sorted(percentile(late[p], 50) / percentile(early[p], 50)
                    for p in early if p in late)
    median = ratios[len(ratios) // 2] if ratios else 0.0
    return info_row(f"{title}: one person alone after the crowd vs before, median of the "
                    f"pages' p50 ratios ({len(ratios)} pages)", median, 1.0, "x")


def outcome_rows(title: str, phases: list[Phase], crowd: Phase, logs: Counter[str],
                 ledger: Ledger, machine: Machine) -> list[Row]:
    """Throughput, failed requests of every phase (and how), the log's exceptions, the
    database check and what the machine did."""
    total = sum(len(phase.samples) for phase in phases)
    failures = sum((phase.failures() for phase in phases), Counter())
    alone = phases[0]
    rows = [info_row(f"{title}: requests per second, the crowd vs one person",
                     len(crowd.samples) / crowd.seconds, len(alone.samples) / alone.seconds,
                     "req/s"),
            Row(f"{title}: failed requests, of all requests of every phase",
                sum(failures.values()), total, "reqs", "0", not failures)]
    rows += [info_row(f"{title}: failed: {kind}", count, total, "reqs")
             for kind, count in failures.most_common(KINDS_SHOWN)]
    rows.append(Row(f"{title}: exceptions in the portal's and the worker's logs",
                    sum(logs.values()), total, "", "0", not logs))
    rows += [info_row(f"{title}: log: {line}", count, total, "")
             for line, count in logs.most_common(KINDS_SHOWN)]
    rows += [_ledger_row(f"{title}: drafts saved, stored as saved", ledger.drafts, "drafts"),
             _ledger_row(f"{title}: merchants created, stored once", ledger.creates,
                         "merchants"),
             _ledger_row(f"{title}: holds placed, in the ledger once with their gid",
                         ledger.holds, "holds")]
    return rows + machine_rows(title, machine)


def machine_rows(title: str, machine: Machine) -> list[Row]:
    """The load average, and whose the CPU time was."""
    capacity = machine.wall * machine.cpus
    return [info_row(f"{title}: load average (1 min), at the end vs at the start",
                     machine.loads[1], machine.loads[0], ""),
            info_row(f"{title}: CPU busy, the whole machine vs its {machine.cpus} CPUs' "
                     f"{machine.wall:.0f} s", machine.busy, capacity, "s"),
            info_row(f"{title}: CPU, the bench's processes (portal, worker, Locust) vs the "
                     f"whole machine's busy time", machine.ours, machine.busy, "s"),
            info_row(f"{title}: CPU, Locust's own vs the whole machine's busy time",
                     machine.locust, machine.busy, "s")]


def _ledger_row(name: str, tally: Tally, unit: str) -> Row:
    right = tally.found == tally.saved and not tally.wrong
    return Row(f"{name} ({len(tally.wrong)} wrong)", tally.found, tally.saved, unit, "all",
               right)
