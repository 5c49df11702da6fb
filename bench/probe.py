"""Measurements that need a process of their own (peak RSS): ``python -m bench.probe ...``.

Each prints one JSON object. The portal is built from the environment (``bench.stack``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import threading
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import event, select

from bench.measure import statements
from portal.app.factory import create_app
from portal.app.worker.loop import WorkerOptions, run_next
from portal.core.clients import onboarding_client
from portal.core.config import current_settings, settings_from_env
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.documents import service as documents
from portal.domain.onboarding import scenarios
from portal.features.bulk import service
from portal.features.bulk.runner import run_rows
from portal.features.bulk.validation import check_file

#: ru_maxrss is in kilobytes on Linux.
KB = 1024

#: Who the audit trail credits with what the probes do.
BENCH = Actor("bench")


def _status(field: str) -> int | None:
    """A ``/proc/self/status`` memory field in bytes (None off Linux)."""
    status = Path("/proc/self/status")
    if not status.exists():
        return None
    line = next(line for line in status.read_text().splitlines() if line.startswith(field))
    return int(line.split()[1]) * KB


def peak_rss() -> int:
    """This process image's peak RSS in bytes.

    VmHWM where there is one: ru_maxrss also keeps the high-water mark of the pre-exec fork,
    a copy of the (large) parent, which hides any peak of the probe below it.
    """
    return _status("VmHWM:") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KB


def rss_growth(action: Callable[[], object]) -> int:
    """How far the peak RSS rose above the RSS before ``action`` (peak reset first on Linux)."""
    clear_refs = Path("/proc/self/clear_refs")
    if clear_refs.exists():
        clear_refs.write_text("5")  # reset VmHWM to the current RSS
    before = _status("VmRSS:") or peak_rss()
    action()
    return peak_rss() - before


def bulk_job(csv_file: Path) -> dict[str, object]:
    """Queue a file as the admin page does, then time one worker running its import job (wall
    clock, and CPU of every thread of the process); with the statements and commits it ran."""
    app = create_app()
    with app.app_context():
        queued = service.submit(csv_file.read_bytes(), csv_file.name, BENCH)
    commits: list[int] = []
    engine = db.engine(app)
    event.listen(engine, "commit", lambda _conn: commits.append(1))
    with statements(app) as seen:
        start, cpu = time.perf_counter(), time.process_time()
        assert run_next(app, WorkerOptions(name="bench-worker"), threading.Event())
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    with app.app_context():
        done = service.get_import(queued.id)
        assert done is not None
        counts = done.counts
    return {"seconds": seconds, "cpu": cpu, "peakRss": peak_rss(), "counts": counts,
            "statements": len(seen), "commits": len(commits)}


def drain_jobs(go: Path) -> dict[str, object]:
    """One worker process: once built, say so (``go`` with ``.ready-<pid>`` added) and wait
    for the file ``go`` (the import is queued then), then run due jobs (the import's chunks)
    until none is left; when it started and ended (wall clock, to line up with the other
    such processes) and the CPU of every thread of the process meanwhile."""
    app = create_app()
    go.with_name(f"{go.name}.ready-{os.getpid()}").touch()
    while not go.exists():
        time.sleep(0.01)
    started, cpu = time.time(), time.process_time()
    ran = 0
    while run_next(app, WorkerOptions(name=f"bench-worker-{os.getpid()}"), threading.Event()):
        ran += 1
    return {"started": started, "ended": time.time(), "cpu": time.process_time() - cpu,
            "jobs": ran}


def upload(csv_file: Path, size: int, max_bytes: int | None = None) -> dict[str, object]:
    """Peak RSS growth of storing and sending one ``size``-byte document for a merchant (the
    upload limit raised to ``max_bytes`` when given)."""
    settings = settings_from_env()
    app = create_app(settings.with_changes(upload_max_bytes=max_bytes) if max_bytes else settings)
    with app.app_context():
        checked = check_file(csv_file.read_bytes(), None)
        # steps 1-7, the Aadhaars outstanding
        run_rows(app, checked.rows[:1], concurrency=1, actor=BENCH)
        settings = current_settings()
        client = onboarding_client(settings)
        merchant = db.session.scalars(select(Merchant)).one()
        first, second = merchant.documents_outstanding
        sample = csv_file.parent / "warm-up.pdf"
        sample.write_bytes(scenarios.sample_pdf(first))
        with sample.open("rb") as stream:  # warm every code path with a tiny file first
            assert documents.upload(client, settings, merchant, first, "a.pdf", stream,
                                    actor=BENCH).ok
        big = csv_file.parent / "big.pdf"
        big.write_bytes(b"%PDF-1.4\n" + b"0" * (size - 9))

        def send_big() -> None:
            with big.open("rb") as stream:
                assert documents.upload(client, settings, merchant, second, "b.pdf", stream,
                                        actor=BENCH).ok

        growth = rss_growth(send_big)
    return {"size": size, "growth": growth}


def main() -> None:
    """Run one probe and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.probe")
    parser.add_argument("probe", choices=["job", "upload", "drain"])
    parser.add_argument("csv_file", type=Path, nargs="?")
    parser.add_argument("--size", type=int, default=5 * 1024 * 1024)
    parser.add_argument("--go", type=Path, help="drain: the file whose creation starts it")
    parser.add_argument("--max-bytes", type=int, help="the upload limit (UPLOAD_MAX_BYTES)")
    args = parser.parse_args()
    if args.probe == "drain":
        result = drain_jobs(args.go)
    elif args.probe == "job":
        result = bulk_job(args.csv_file)
    else:
        result = upload(args.csv_file, args.size, args.max_bytes)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
