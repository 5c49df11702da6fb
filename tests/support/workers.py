"""Running the background worker inside a test: everything due, once, in the test's process."""

from __future__ import annotations

from flask import Flask

from portal.worker.loop import WorkerOptions, run_due

#: The worker name of in-process runs.
TEST_WORKER = "test-worker"


def run_worker(app: Flask) -> int:
    """Run every due job and outbox item as a worker would; returns the jobs run."""
    return run_due(app, WorkerOptions(name=TEST_WORKER))
