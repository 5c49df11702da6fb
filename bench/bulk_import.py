"""Bulk import as production runs it (a worker's job, ``bench/probe.py job``) vs the sandbox's
raw capacity for the same calls from as many direct clients as the job has rows in flight, on
SQLite and on a throwaway PostgreSQL, in alternating rounds; peak RSS of the job at two sizes
(the upload's memory is ``bench/upload.py``)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.measure import Row, floor_row, info_row, ratio_row
from bench.stack import Bench, postgres
from portal.core.config import settings_from_env
from portal.core.config_fields import ROOT
from portal.core.migrate import upgrade
from portal.domain.onboarding.scenarios import gstin_of
from portal.domain.onboarding.steps import BY_KEY
from portal.features.bulk.parsing import BulkRow, parse_csv
from portal.gateway.onboarding.client import OnboardingClient

EXAMPLE = ROOT / "tests" / "bulk" / "data" / "example.csv"
#: Merchants per round, and rounds per database (raw and job alternate, so load hits both);
#: the two databases' tags below are ``2 * ROUNDS`` letters each.
ROUND, ROUNDS = 80, 3
#: The small import of the memory row.
SMALL = 20
#: The steps the job sends (the page never uploads documents), in the wizard's order.
STEPS = ("business", "owners", "bank", "signatory", "products")
#: Gateway calls per merchant: the create and each step.
CALLS = 1 + len(STEPS)
#: Throughput targets (job vs raw merchants/s) per database.
TARGETS = {"SQLite": 0.6, "PostgreSQL": 0.8}
#: The job's CPU per merchant the issue asks for (ms, every thread of the worker's process).
CPU_TARGET = 14.0
MB = 1024 * 1024


def write_csv(folder: Path, count: int, tag: str) -> Path:
    """``count`` copies of the example's first merchant, each with its own id and PAN (and
    that PAN's GSTIN: a GSTIN of another PAN is refused before sending)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(EXAMPLE.parent / "docs", folder / "docs", dirs_exist_ok=True)
    with EXAMPLE.open(newline="") as handle:
        reader = csv.DictReader(handle)
        template, header = next(reader), reader.fieldnames or []
    path = folder / "merchants.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, header)
        writer.writeheader()
        writer.writerows({**template, "externalOnboardingId": f"bench-{tag}-{n:05d}",
                          "panNumber": f"{tag}BCCD{n:04d}E",
                          "gstNumber": gstin_of(f"{tag}BCCD{n:04d}E")}
                         for n in range(1, count + 1))
    return path


def probe(env: dict[str, str], *args: str) -> dict:
    """Run ``python -m bench.probe`` on the portal ``env`` configures and read its figures."""
    done = subprocess.run([sys.executable, "-m", "bench.probe", *args], cwd=ROOT,  # noqa: S603
                          env={**os.environ, **env}, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def raw_row(client: OnboardingClient, row: BulkRow) -> None:
    """The calls the import job makes for one row, made directly."""
    onboarding_id = client.create_onboarding(_body("create", row)).onboarding_id
    for key in STEPS:
        send = BY_KEY[key].send
        assert send is not None
        send(client, onboarding_id, _body(key, row))


def _body(key: str, row: BulkRow):
    build = BY_KEY[key].request
    assert build is not None
    return build(row.forms[key])


def raw_seconds(bench: Bench, csv_file: Path, clients: int) -> tuple[float, float]:
    """Seconds for the sandbox to take every row's calls from ``clients`` direct clients, and
    the CPU seconds the clients spent (this process's clock: the sandbox is another)."""
    rows = parse_csv(csv_file.read_bytes()).rows
    local = threading.local()

    def work(row: BulkRow) -> None:
        if not hasattr(local, "client"):
            local.client = bench.client()
        raw_row(local.client, row)

    start, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(work, rows))
    return time.perf_counter() - start, time.process_time() - cpu


def throughput(bench: Bench, database: str, env: dict[str, str],
               tags: str) -> tuple[list[Row], list[dict]]:
    """Rounds of raw calls then the job, each on new merchants (their ids and PANs tagged with
    the next two letters of ``tags``); the rows and the job figures."""
    raw, raw_cpu, jobs = 0.0, 0.0, []
    in_flight = settings_from_env(env).bulk_concurrency  # the job's rows in flight
    for n, (raw_tag, job_tag) in enumerate(zip(tags[::2], tags[1::2], strict=True)):
        folder = bench.workdir / f"{database}-{n}"
        seconds, cpu = raw_seconds(bench, write_csv(folder / "raw", ROUND, raw_tag), in_flight)
        raw, raw_cpu = raw + seconds, raw_cpu + cpu
        jobs.append(probe(env, "job", str(write_csv(folder / "job", ROUND, job_tag))))
        assert jobs[-1]["counts"]["awaiting_documents"] == ROUND, jobs[-1]["counts"]
    merchants = ROUND * ROUNDS
    seconds = sum(float(job["seconds"]) for job in jobs)
    name = f"Bulk import job ({database}): merchants/s, {merchants} in {ROUNDS} rounds"
    return [
        floor_row(f"{name}, portal vs direct clients", merchants / seconds, merchants / raw,
                  "/s", TARGETS[database]),
        cpu_row(database, sum(job["cpu"] for job in jobs) / merchants * 1000,
                raw_cpu / merchants * 1000),
        info_row(f"Bulk import job ({database}): commits per merchant vs its {CALLS} gateway "
                 f"calls ({sum(job['statements'] for job in jobs) / merchants:.0f} SQL "
                 "statements)", sum(job["commits"] for job in jobs) / merchants, CALLS, ""),
    ], jobs


def cpu_row(database: str, job_ms: float, raw_ms: float) -> Row:
    """The job's CPU per merchant (every thread of its process) against ``CPU_TARGET``, beside
    the direct clients' for the same calls."""
    return Row(f"Bulk import job ({database}): CPU per merchant, the job's process vs the "
               "direct clients'", job_ms, raw_ms, "ms", f"<= {CPU_TARGET:g} ms",
               job_ms <= CPU_TARGET)


def run(bench: Bench) -> list[Row]:
    """The throughput rows on each database, the memory rows."""
    env = bench.portal_env("bulk-sqlite")
    rows, jobs = throughput(bench, "SQLite", env, "ABCDEF")
    small = probe(bench.portal_env("bulk-small"), "job",
                  str(write_csv(bench.workdir / "small", SMALL, "S")))
    rows.append(ratio_row(f"Bulk import job: peak RSS, {ROUND} vs {SMALL} merchants",
                          max(job["peakRss"] for job in jobs) / MB, small["peakRss"] / MB,
                          "MB", 1.3))
    with postgres() as urls:
        if urls is None:
            rows.append(info_row("Bulk import job (PostgreSQL): no server binaries", 0, 0, ""))
        else:
            [url] = urls
            upgrade(url)
            rows += throughput(bench, "PostgreSQL",
                               {**bench.portal_env("bulk-pg"), "DATABASE_URL": url},
                               "GHIJKL")[0]
    return rows
