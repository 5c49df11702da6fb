"""Run every benchmark and print one table: ``python -m bench`` (``make bench``)."""

from __future__ import annotations

import argparse
import logging
import os
import platform
import tempfile
import time
from pathlib import Path

from bench import (
    bulk_import,
    bulk_workers,
    load,
    merchant_list,
    payment_list,
    rfi_prediction,
    save_and_send,
    signing,
    upload,
)
from bench.measure import render
from bench.stack import Bench, sandbox

SUITES = (signing, save_and_send, merchant_list, payment_list, bulk_import, bulk_workers, upload,
          rfi_prediction, load)


def machine() -> str:
    """Where the figures were measured: platform, CPUs and memory."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024 ** 3
    return (f"Machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs "
            f"(nproc {len(os.sched_getaffinity(0))}), {memory:.1f} GB RAM, "
            f"{platform.python_implementation()} {platform.python_version()}")


def chosen_suites(argv: list[str] | None = None) -> tuple:
    """The suites to run: all, or those named with ``--only`` (module names, repeatable)."""
    names = {suite.__name__.rsplit(".", 1)[-1]: suite for suite in SUITES}
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--only", action="append", choices=sorted(names), metavar="SUITE",
                        help=f"run only this suite (one of {', '.join(names)}); repeatable")
    only = parser.parse_args(argv).only
    return tuple(names[name] for name in only) if only else SUITES


def main() -> None:
    """Start a sandbox, run the chosen suites in turn and print the table."""
    suites = chosen_suites()
    logging.disable(logging.INFO)  # the portal logs every gateway call; not part of a figure
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="portal-bench-") as scratch:
        workdir = Path(scratch)
        with sandbox(workdir) as url:
            bench = Bench(workdir, url)
            rows = [row for suite in suites for row in suite.run(bench)]
    print(machine())
    print(render(rows))
    print(f"(measured in {time.perf_counter() - started:.0f} s; figures from one run)")


if __name__ == "__main__":
    main()
