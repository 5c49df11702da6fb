"""One bulk import over several worker processes on PostgreSQL: an import of ``ROUND``
merchants cut into ``CHUNKS`` chunks, queued as the admin page queues it, then sent by 1 and by
2 worker processes (``bench/probe.py drain``, each started and ready before the import is
queued), in alternating rounds; merchants/s of each and their ratio, and the workers' CPU per
merchant."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.bulk_import import ROUND, ROUNDS, write_csv
from bench.measure import Row, floor_row, info_row
from bench.stack import Bench, postgres
from portal.app.factory import create_app
from portal.core.config import settings_from_env
from portal.core.config_fields import ROOT
from portal.core.db import db
from portal.core.migrate import upgrade
from portal.domain.audit.service import Actor
from portal.features.bulk import service

#: Chunks per import: enough for two workers to share.
CHUNKS = 4
#: Two worker processes against one (the target holds where the machine has the cores).
TARGET = 1.6


def run_workers(env: dict[str, str], csv_file: Path, processes: int) -> tuple[float, float]:
    """Queue ``csv_file`` and let ``processes`` worker processes send it; the seconds from the
    first one starting to the last one ending, and their CPU seconds together."""
    go = csv_file.with_name("go")
    started = [subprocess.Popen(  # noqa: S603 - our own module
        [sys.executable, "-m", "bench.probe", "drain", "--go", str(go)], cwd=ROOT,
        env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True) for _ in range(processes)]
    while len(list(csv_file.parent.glob("go.ready-*"))) < processes:
        time.sleep(0.05)
    app = create_app(settings_from_env(env))
    with app.app_context():
        queued = service.submit(csv_file.read_bytes(), csv_file.name, Actor("bench"))
    go.touch()
    figures = [json.loads(proc.communicate()[0].strip().splitlines()[-1]) for proc in started]
    with app.app_context():
        done = service.get_import(queued.id)
        assert done is not None and done.state == "finished", done and done.state
        assert done.counts["awaiting_documents"] == ROUND, done.counts
    db.engine(app).dispose()
    return (max(f["ended"] for f in figures) - min(f["started"] for f in figures),
            sum(f["cpu"] for f in figures))


def run(bench: Bench) -> list[Row]:
    """Rounds of 1 then 2 workers on a throwaway PostgreSQL, new merchants each round."""
    with postgres() as urls:
        if urls is None:
            return [info_row("Bulk import (PostgreSQL), worker processes: no server binaries",
                             0, 0, "")]
        [url] = urls
        upgrade(url)
        return rounds({**bench.portal_env("bulk-workers"), "DATABASE_URL": url,
                       "BULK_CHUNK_ROWS": str(ROUND // CHUNKS)}, bench.workdir)


def rounds(env: dict[str, str], workdir: Path) -> list[Row]:
    """Alternating rounds of 1 and 2 worker processes on the portal ``env`` configures."""
    seconds = {1: 0.0, 2: 0.0}
    cpu = {1: 0.0, 2: 0.0}
    for n, tag in enumerate("MNOPQR"[:2 * ROUNDS]):
        processes = 1 + n % 2
        folder = workdir / f"workers-{n}"
        took, used = run_workers(env, write_csv(folder, ROUND, tag), processes)
        seconds[processes] += took
        cpu[processes] += used
    merchants = ROUND * ROUNDS
    name = (f"Bulk import (PostgreSQL), one import in {CHUNKS} chunks: merchants/s, "
            f"{merchants} in {ROUNDS} rounds")
    return [
        floor_row(f"{name}, 2 worker processes vs 1", merchants / seconds[2],
                  merchants / seconds[1], "/s", TARGET),
        info_row("Bulk import (PostgreSQL), worker processes: CPU per merchant of every "
                 "process, 2 vs 1", cpu[2] / merchants * 1000, cpu[1] / merchants * 1000, "ms"),
    ]
