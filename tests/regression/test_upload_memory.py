"""Peak memory of one upload: a 5 MB document, stored and sent to the gateway, must not add
several copies of itself to the process (it is streamed to disk and Base64-encoded into a
spooled file as it is sent). Measured in a process of its own (``bench.probe``), with a
generous bound: a return to holding the file, its Base64 and the JSON body at once fails."""

from __future__ import annotations

import json
import subprocess
import sys

from bench.bulk_import import write_csv
from tests.support.servers import ROOT, portal_environment

SIZE = 5 * 1024 * 1024
#: Growth allowed, as a multiple of the file's size (measured: about 0.4x).
BOUND = 3


def test_a_5_mb_upload_adds_less_than_three_times_its_size_to_peak_rss(settings, tmp_path):
    csv_file = write_csv(tmp_path / "upload", 1, "M")
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "bench.probe", "upload", str(csv_file), "--size", str(SIZE)],
        cwd=ROOT, env=portal_environment(settings), check=True, capture_output=True,
        text=True, timeout=300)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["size"] == SIZE
    assert figures["growth"] < BOUND * SIZE, f"peak RSS grew by {figures['growth'] / SIZE:.1f}x"
