"""Where a bulk import job's CPU goes: ``python -m bench.profile_job [--postgres] [--rows N]``.

Queues an import of ``N`` merchants as the admin page does and runs it with a worker's
``run_next`` in this process, against a sandbox of its own, with a ``cProfile`` per thread on
the thread's CPU clock (the row threads included), merged; prints the job's CPU per merchant
(the process clock, every thread), its statements and commits per merchant, then the functions
with the most cumulative CPU. Not part of ``make bench`` (a profile slows what it measures).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import logging
import pstats
import tempfile
import threading
import time
from contextlib import nullcontext
from pathlib import Path

from sqlalchemy import event

from bench.bulk_import import write_csv
from bench.measure import statements
from bench.stack import Bench, postgres, sandbox
from portal.app.factory import create_app
from portal.app.worker.loop import WorkerOptions, run_next
from portal.core.config import settings_from_env
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.features.bulk import service
from tests.jobs.support import ADMIN


class ThreadProfiles:
    """A ``cProfile.Profile`` on the thread CPU clock for every thread started while on."""

    def __init__(self) -> None:
        self.profiles: list[cProfile.Profile] = []
        self._lock = threading.Lock()

    def _start(self, *_args: object) -> None:
        profile = cProfile.Profile(time.thread_time)
        with self._lock:
            self.profiles.append(profile)
        profile.enable()  # replaces this hook in the thread

    def __enter__(self) -> ThreadProfiles:
        threading.setprofile(self._start)
        self._start()
        return self

    def __exit__(self, *_exc: object) -> None:
        threading.setprofile(None)  # type: ignore[arg-type]
        for profile in self.profiles:
            profile.disable()

    def stats(self) -> pstats.Stats:
        """Every thread's profile, merged."""
        out = pstats.Stats(self.profiles[0], stream=io.StringIO())
        for profile in self.profiles[1:]:
            out.add(profile)
        return out


def profile_import(env: dict[str, str], csv_file: Path, rows: int, top: int,
                   save: Path | None = None) -> str:
    """Run one import of ``csv_file``, profiled unless ``top`` is 0 (the merged profile
    saved to ``save`` when given, for ``pstats``); the report."""
    app = create_app(settings_from_env(env))
    with app.app_context():
        service.submit(csv_file.read_bytes(), csv_file.name, ADMIN)
    commits: list[int] = []
    event.listen(db.engine(app), "commit", lambda _conn: commits.append(1))
    profiles = ThreadProfiles()
    with statements(app) as seen, profiles if top else nullcontext():
        cpu, wall = time.process_time(), time.perf_counter()
        assert run_next(app, WorkerOptions(name="profiled"), threading.Event())
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    text = io.StringIO()
    if top:
        stats = profiles.stats()
        stats.stream = text  # type: ignore[attr-defined]
        stats.sort_stats("cumulative").print_stats(top)
        stats.print_stats(r"/portal/", top)  # the portal's own functions
        if save is not None:
            stats.dump_stats(save)
    return (f"{rows} merchants: {cpu / rows * 1000:.1f} ms CPU per merchant "
            f"{'under the profiler ' if top else ''}"
            f"({wall:.1f} s wall), {len(seen) / rows:.1f} statements and "
            f"{len(commits) / rows:.1f} commits per merchant\n{text.getvalue()}")


def main() -> None:
    """Start a sandbox (and PostgreSQL when asked), profile one import, print the report."""
    parser = argparse.ArgumentParser(prog="python -m bench.profile_job")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--save", type=Path, help="write the merged profile there (pstats)")
    parser.add_argument("--top", type=int, default=45,
                        help="functions listed; 0: no profile, the CPU figure alone")
    args = parser.parse_args()
    logging.disable(logging.INFO)
    with tempfile.TemporaryDirectory(prefix="portal-profile-") as scratch:
        workdir = Path(scratch)
        with sandbox(workdir) as url:
            bench = Bench(workdir, url)
            env = bench.portal_env("profile")
            csv_file = write_csv(workdir / "rows", args.rows, "P")
            if not args.postgres:
                print(profile_import(env, csv_file, args.rows, args.top, args.save))
                return
            with postgres() as urls:
                assert urls is not None, "no PostgreSQL server binaries"
                upgrade(urls[0])
                print(profile_import({**env, "DATABASE_URL": urls[0]}, csv_file, args.rows,
                                     args.top, args.save))


if __name__ == "__main__":
    main()
