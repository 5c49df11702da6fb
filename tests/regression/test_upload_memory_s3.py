"""Peak memory of one upload with documents in object storage: a 20 MB document is spooled to
this host's disk, sent to the bucket in parts one at a time, then streamed back out of it to the
gateway as Base64: the process grows by less than the file's size, as with the upload folder.
Measured in a process of its own (``bench.probe``)."""

from __future__ import annotations

import json
import subprocess
import sys

from bench.bulk_import import write_csv
from tests.support.object_store import objects, on_bucket
from tests.support.servers import ROOT, portal_environment

SIZE = 20 * 1024 * 1024
#: Growth allowed, as a multiple of the file's size (measured: about 0.01x); holding one 8 MB part
#: of the multipart upload in memory (0.4x) would fail it, let alone the whole file.
BOUND = 0.25


def test_a_20_mb_upload_to_object_storage_adds_less_than_its_size_to_peak_rss(
        settings, sandbox, s3_server, s3_bucket, tmp_path):
    sandbox.state.config.maxDocumentBytes = SIZE
    csv_file = write_csv(tmp_path / "upload", 1, "S")
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "bench.probe", "upload", str(csv_file), "--size", str(SIZE),
         "--max-bytes", str(SIZE)],
        cwd=ROOT, env=portal_environment(on_bucket(settings, s3_server, s3_bucket)), check=True,
        capture_output=True, text=True, timeout=300)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["size"] == SIZE
    assert any(len(content) == SIZE for content in objects(s3_server, s3_bucket).values())
    assert figures["growth"] < BOUND * SIZE, f"peak RSS grew by {figures['growth'] / SIZE:.2f}x"
