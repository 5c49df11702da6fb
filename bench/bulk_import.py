"""Bulk import of 500 merchants vs the sandbox's raw capacity for the same calls; peak RSS at
500 vs 50 merchants (the upload's memory is ``bench/upload.py``)."""

from __future__ import annotations

import base64
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

from bench.measure import Row, floor_row, ratio_row
from bench.stack import Bench
from portal.bulk.parsing import BulkRow, parse_csv
from portal.config import ROOT
from portal.gateway.onboarding_client import OnboardingClient
from portal.onboarding.steps import BY_KEY

EXAMPLE = ROOT / "tests" / "bulk" / "data" / "example.csv"
LARGE, SMALL = 500, 50
CONCURRENCY = 4
MB = 1024 * 1024


def write_csv(folder: Path, count: int, tag: str) -> Path:
    """``count`` copies of the example's first merchant, each with its own id and PAN."""
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
                          "panNumber": f"{tag}BCCD{n:04d}E"} for n in range(1, count + 1))
    return path


def probe(bench: Bench, name: str, *args: str) -> dict:
    """Run ``python -m bench.probe`` on a fresh portal database and read its figures."""
    env = {**os.environ, **bench.portal_env(name)}
    done = subprocess.run([sys.executable, "-m", "bench.probe", *args], cwd=ROOT, env=env,  # noqa: S603
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def raw_row(client: OnboardingClient, row: BulkRow, folder: Path) -> None:
    """The calls the import makes for one row, made directly."""
    answer = client.create_onboarding(_body("create", row))
    onboarding_id = answer.merchantInfo.onboardingId
    for key in ("business", "owners", "bank", "signatory"):
        send = BY_KEY[key].send
        assert send is not None
        answer = send(client, onboarding_id, _body(key, row))
    for cell in row.documents:
        pending = answer.merchantOnboardingCheckListStatus.documentsToBeUploaded
        doc_type = next(k for k in pending if cell.owner is not None
                        and k.startswith(row.owner_pan(cell.owner) + "_"))
        content = base64.b64encode((folder / cell.path).read_bytes()).decode("ascii")
        answer = client.upload_document(onboarding_id, {
            "merchantDocType": doc_type, "fileName": Path(cell.path).name,
            "documentContent": content})
    client.configure_products(onboarding_id, _body("products", row))


def _body(key: str, row: BulkRow):
    build = BY_KEY[key].request
    assert build is not None
    return build(row.forms[key])


def raw_capacity(bench: Bench, folder: Path) -> float:
    """Seconds for the sandbox to take every row's calls from direct clients."""
    csv_file = write_csv(folder, LARGE, "R")
    rows = parse_csv(csv_file.read_bytes()).rows
    local = threading.local()

    def work(row: BulkRow) -> None:
        if not hasattr(local, "client"):
            local.client = bench.client()
        raw_row(local.client, row, folder)

    start = time.perf_counter()
    with ThreadPoolExecutor(CONCURRENCY) as pool:
        list(pool.map(work, rows))
    return time.perf_counter() - start


def run(bench: Bench) -> list[Row]:
    """The throughput and memory rows."""
    raw = raw_capacity(bench, bench.workdir / "raw")
    large = probe(bench, "bulk-large", "import",
                  str(write_csv(bench.workdir / "large", LARGE, "P")),
                  "--concurrency", str(CONCURRENCY))
    small = probe(bench, "bulk-small", "import",
                  str(write_csv(bench.workdir / "small", SMALL, "Q")),
                  "--concurrency", str(CONCURRENCY))
    assert large["counts"]["completed"] == LARGE, large["counts"]
    return [
        floor_row(f"Bulk import of {LARGE} merchants: merchants/s, portal vs direct client",
                  LARGE / float(large["seconds"]), LARGE / raw, "/s", 0.6),
        ratio_row(f"Bulk import: peak RSS, {LARGE} vs {SMALL} merchants",
                  large["peakRss"] / MB, small["peakRss"] / MB, "MB", 1.3),
    ]
