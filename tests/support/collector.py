"""The test processes' garbage collector, set for a suite rather than a server (a plugin of
``tests/conftest.py``; the portal's own processes keep Python's defaults).

A test process holds some 500,000 objects once its tests are collected (modules, routes, SQL and
templates compiled once) and more as caches fill, and Python's full collection walks every one
of them: each took about a quarter of a second, and with the young generations' passes the
collector took a sixth of a page test's CPU. What is there once collection ends lives until the
process does, so it is frozen out of every later pass; a full pass then waits for a thousand
middle-generation passes instead of ten (the young generations are as Python sets them, so
cycles that die young are still freed soon).

A pytest-xdist worker's last act is to exit once its results are sent: it skips the interpreter's
finalization, which walked its two million objects one last time (about three seconds at the end
of every run, after pytest's own final pass has looked for unraisable exceptions)."""

from __future__ import annotations

import atexit
import gc
import os

import pytest

#: Python's young thresholds, and a full pass 100 times rarer than its default.
THRESHOLDS = (700, 10, 1000)


def pytest_configure(config: pytest.Config) -> None:
    """Set the thresholds before the tests are collected; in a pytest-xdist worker, end the
    process at once when it exits (after the exit hooks registered later than this one, the
    tests'; a library's earlier hook, such as logging's flush, is skipped: -u leaves nothing
    buffered)."""
    gc.set_threshold(*THRESHOLDS)
    if hasattr(config, "workerinput"):
        atexit.register(os._exit, 0)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection built (it lives as long as the process): no pass walks it again."""
    gc.collect()
    gc.freeze()
