"""Fifty people at once: Locust drives real sign-ins with authenticator codes, lists, searches,
wizard saves and sends and holds (``bench/load_people.py``) against the portal as it is
deployed, then the database is read to check that nothing saved was lost or stored twice.

Two deployments, each on a fresh database seeded by ``bench/load_setup.py``, with the sandbox
as the gateway, a background worker (``flask --app app worker``) and the development mail sink
beside it, as ``make run`` has them:

- the default: gunicorn as ``gunicorn.conf.py`` configures it (2 sync workers) on SQLite;
- several processes: 4 gthread workers of 4 threads (README, "Running several portal
  processes") on a throwaway PostgreSQL (the tests' cluster: fsync off).

Each first runs one person alone, clicking without pauses (every page's p50 on an otherwise
idle portal: the baseline), then the crowd, each person pausing 1 to 5 s between pages, then
one person alone again: how far its p50s moved says how much the machine's other work changed
meanwhile (the machine is shared; its load average and CPU time are rows too).

``LOAD_PEOPLE`` (default 50), ``LOAD_SECONDS`` (the crowd's time, default 30) and
``LOAD_ALONE_SECONDS`` (the person alone, default 15) size the run: ``make bench`` runs the
default, a smoke run of the whole path; ``make bench-load`` the full 5 minutes (300 s, one
person alone 60 s)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil

from bench.load_check import check
from bench.load_report import (
    Machine,
    Phase,
    drift_row,
    latency_rows,
    outcome_rows,
    server_errors,
)
from bench.load_setup import payments_env, prepare
from bench.measure import Row, info_row
from bench.stack import Bench, free_port, postgres
from portal.core.config import settings_from_env
from portal.core.config_fields import ROOT
from portal.core.db import db
from portal.core.migrate import upgrade
from tests.support.servers import gunicorn_portal, portal_environment, stop

PEOPLE = int(os.environ.get("LOAD_PEOPLE", "50"))
SECONDS = int(os.environ.get("LOAD_SECONDS", "30"))
ALONE_SECONDS = int(os.environ.get("LOAD_ALONE_SECONDS", "15"))
#: People arriving per second while the crowd gathers.
ARRIVALS = 10
#: How long a person's task may run on after the crowd's time is up (its outcome is noted).
PATIENCE = 60
LOCUSTFILE = "bench/load_people.py"


@dataclass(frozen=True)
class Deployment:
    """How the portal is served: its name in the table and gunicorn's options beyond
    gunicorn.conf.py."""

    name: str
    gunicorn: tuple[str, ...]


DEFAULT = Deployment("SQLite, 2 sync workers", ())
SEVERAL = Deployment("PostgreSQL, 4 gthread workers x 4 threads",
                     ("--workers", "4", "--worker-class", "gthread", "--threads", "4"))


def run(bench: Bench) -> list[Row]:
    """Both deployments in turn (PostgreSQL's rows say so when no server is installed)."""
    rows = measure(bench, DEFAULT, bench.portal_env("load"))
    with postgres() as urls:
        if urls is None:
            return [*rows, info_row(f"Load ({SEVERAL.name}): no server binaries", 0, 0, "")]
        upgrade(urls[0])
        return [*rows, *measure(bench, SEVERAL,
                                {**bench.portal_env("load-pg"), "DATABASE_URL": urls[0]})]


def measure(bench: Bench, deployment: Deployment, env: dict[str, str]) -> list[Row]:
    """Seed, serve, run one person, the crowd and one person again, check the database; the
    rows."""
    folder = bench.workdir / f"load-{len(deployment.gunicorn)}"
    folder.mkdir()
    mail_port = free_port()
    env = {**env, **payments_env(bench.sandbox_url, folder), "MFA_FOR_EVERYONE": "true",
           "MAIL_PORT": str(mail_port)}
    plan = folder / "plan.json"
    app = prepare(env, PEOPLE, plan)
    environment = portal_environment(settings_from_env(env))
    logs = [folder / "gunicorn.log", folder / "worker.log"]
    running = {child.pid for child in psutil.Process().children(recursive=True)}  # the sandbox
    busy_at_start, started, load_at_start = busy_seconds(), time.monotonic(), os.getloadavg()[0]
    with (background([sys.executable, "-m", "portal.core.mail.sink", "--port", str(mail_port),
                      "--folder", str(folder / "mail")], environment, folder / "mail.log"),
          gunicorn_portal(settings_from_env(env), logs[0], *deployment.gunicorn) as url,
          background([sys.executable, "-m", "flask", "--app", "app", "worker"], environment,
                     logs[1])):
        runs = [swarm(url, plan, "single", 1, ALONE_SECONDS, folder),
                swarm(url, plan, "load", PEOPLE, SECONDS, folder),
                swarm(url, plan, "after", 1, ALONE_SECONDS, folder)]
        load_at_end, servers = os.getloadavg()[0], cpu_of_children(running)
    busy, wall = busy_seconds() - busy_at_start, time.monotonic() - started
    ledger = check(app, [run.notes for run in runs])
    db.engine(app).dispose()
    for problem in (ledger.drafts.wrong + ledger.creates.wrong + ledger.holds.wrong)[:20]:
        print(f"load ({deployment.name}): {problem}", file=sys.stderr)
    title = f"Load ({deployment.name}; {PEOPLE} people, {SECONDS} s)"
    errors = sum((server_errors(log) for log in logs), Counter())
    locust = sum(run.cpu for run in runs)
    machine = Machine((load_at_start, load_at_end), busy=busy, ours=servers + locust,
                      locust=locust, wall=wall, cpus=os.cpu_count() or 1)
    alone, crowd, after = (run.phase for run in runs)
    return [*latency_rows(title, alone, crowd), drift_row(title, alone, after),
            *outcome_rows(title, [alone, crowd, after], crowd, errors, ledger, machine)]


def busy_seconds() -> float:
    """The whole machine's busy CPU seconds since boot (/proc/stat; idle and waiting aside)."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def cpu_of_children(known: set[int]) -> float:
    """CPU seconds of this process's descendants but ``known`` (the portal's processes: the
    mail sink, gunicorn and its workers, the worker), read while they still run."""
    total = 0.0
    for child in psutil.Process().children(recursive=True):
        if child.pid not in known:
            with contextlib.suppress(psutil.NoSuchProcess):
                times = child.cpu_times()
                total += times.user + times.system + times.children_user + times.children_system
    return total


def _reaped_cpu() -> float:
    """CPU seconds of this process's children that ended and were waited for."""
    times = os.times()
    return times.children_user + times.children_system


@dataclass(frozen=True)
class Run:
    """What one Locust run left: its timings, its people's notes for the check, and the CPU
    seconds Locust used."""

    phase: Phase
    notes: dict
    cpu: float


def swarm(url: str, plan: Path, phase: str, people: int, seconds: int, folder: Path) -> Run:
    """Locust in a process of its own, headless, for ``seconds`` with ``people``."""
    results = folder / f"{phase}.json"
    command = [str(Path(sys.executable).parent / "locust"), "-f", LOCUSTFILE, "--headless",
               "--host", url, "--users", str(people), "--spawn-rate", str(ARRIVALS),
               "--run-time", f"{seconds}s", "--stop-timeout", str(PATIENCE), "--only-summary",
               "--exit-code-on-error", "0", "--loglevel", "WARNING"]
    environment = {**os.environ, "LOAD_PLAN": str(plan), "LOAD_PHASE": phase,
                   "LOAD_RESULTS": str(results)}
    before = _reaped_cpu()
    with (folder / f"locust-{phase}.log").open("wb") as log:
        subprocess.run(command, cwd=ROOT, env=environment, stdout=log,  # noqa: S603
                       stderr=subprocess.STDOUT, check=True, timeout=seconds + PATIENCE + 120)
    notes = json.loads(results.read_text(encoding="utf-8"))
    return Run(Phase(notes.pop("samples"), seconds), notes, _reaped_cpu() - before)


@contextmanager
def background(command: list[str], environment: dict[str, str], log: Path) -> Iterator[None]:
    """``command`` running from the project root, its output in ``log``, until the block ends;
    a server (``--port`` given) is waited for until it accepts connections."""
    with log.open("wb") as output, subprocess.Popen(  # noqa: S603 (our own command line)
            command, cwd=ROOT, env=environment, stdout=output,
            stderr=subprocess.STDOUT) as process:
        try:
            if "--port" in command:
                _accepting(int(command[command.index("--port") + 1]))
            yield
        finally:
            stop(process)


def _accepting(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
