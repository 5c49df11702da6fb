"""Running the background worker inside a test (everything due, once, in the test's process) or
as an operator starts it (``flask --app app worker`` in a process of its own)."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask

from portal.app.worker.loop import WorkerOptions, run_due
from portal.core.config import Settings
from tests.support.servers import ROOT, portal_environment

#: The worker name of in-process runs.
TEST_WORKER = "test-worker"
#: A worker process's lease: short, so a takeover comes soon (the heartbeat renews it every
#: second meanwhile).
LEASE_SECONDS = 3


def run_worker(app: Flask) -> int:
    """Run every due job and outbox item as a worker would; returns the jobs run."""
    return run_due(app, WorkerOptions(name=TEST_WORKER))


@contextmanager
def worker_process(settings: Settings, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``flask --app app worker`` as an operator starts it (a ``LEASE_SECONDS`` lease, polling
    every 0.2 s), its output in ``log``; stopped with SIGTERM at the end if still running."""
    command = [sys.executable, "-m", "flask", "--app", "app", "worker",
               "--lease", str(LEASE_SECONDS), "--poll", "0.2"]
    with log.open("wb") as output, subprocess.Popen(  # noqa: S603 (our own command line)
            command, env=portal_environment(settings), cwd=ROOT, stdout=output,
            stderr=subprocess.STDOUT) as worker:
        try:
            yield worker
        finally:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
                worker.wait(timeout=30)
