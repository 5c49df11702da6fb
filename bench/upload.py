"""Peak RSS growth of uploading one document (stored, then sent to the gateway as Base64),
for a 5 MB and a 20 MB file, each in a process of its own (``bench.probe``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from bench.bulk_import import write_csv
from bench.measure import Row, ratio_row
from bench.stack import Bench
from portal.config import ROOT

MB = 1024 * 1024
#: The file sizes measured; the upload limit is raised above the largest.
SIZES = (5 * MB, 20 * MB)
#: Target: a document adds at most its own size to the peak RSS.
LIMIT = 1.0


def probe_upload(bench: Bench, size: int) -> dict:
    """Run ``python -m bench.probe upload`` for one ``size``-byte file on a fresh portal."""
    name = f"upload-{size // MB}mb"
    env = {**os.environ, **bench.portal_env(name), "UPLOAD_MAX_BYTES": str(max(SIZES))}
    csv_file = write_csv(bench.workdir / name, 1, "U")
    done = subprocess.run([sys.executable, "-m", "bench.probe", "upload", str(csv_file),  # noqa: S603
                           "--size", str(size)], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(bench: Bench) -> list[Row]:
    """One row per file size: peak RSS growth vs the file's size."""
    rows = []
    for size in SIZES:
        upload = probe_upload(bench, size)
        rows.append(ratio_row(f"Upload of a {size // MB} MB document: peak RSS growth vs file size",
                              upload["growth"] / MB, upload["size"] / MB, "MB", LIMIT))
    return rows
