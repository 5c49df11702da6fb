"""Peak RSS growth of uploading one document (streamed to disk, then sent to the gateway as
Base64 written into a spooled file as it is signed), for a 5 MB and a 20 MB file, and for a 20 MB
file kept in S3-compatible object storage (spooled to disk, sent to the bucket in 8 MB parts one
at a time, streamed back out of it to the gateway; moto's server on loopback), each in a process
of its own (``bench.probe upload``). The suite runs its own sandbox, configured to take
documents over the contract's 10 MB, and raises the portal's upload limit to match."""

from __future__ import annotations

from bench.bulk_import import probe, write_csv
from bench.measure import Row, ratio_row
from bench.object_store import s3_bucket
from bench.stack import Bench, sandbox

MB = 1024 * 1024
#: The file sizes measured.
SIZES = (5 * MB, 20 * MB)
#: Target: a document adds at most its own size to the peak RSS, whatever its size.
LIMIT = 1.0


def run(bench: Bench) -> list[Row]:
    """One row per file size: peak RSS growth vs the file's size."""
    folder = bench.workdir / "upload"
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    with sandbox(folder, maxDocumentBytes=max(SIZES)) as url:
        own = Bench(bench.workdir, url)
        for size, tag in zip(SIZES, "UV", strict=True):  # a merchant (and PAN) per upload
            name = f"upload-{size // MB}mb"
            figures = probe(own.portal_env(name), "upload",
                            str(write_csv(folder / name, 1, tag)),
                            "--size", str(size), "--max-bytes", str(max(SIZES)))
            rows.append(ratio_row(f"Upload of a {size // MB} MB document: peak RSS growth vs "
                                  "file size", figures["growth"] / MB, size / MB, "MB", LIMIT))
        with s3_bucket() as bucket:
            if bucket is not None:
                size = max(SIZES)
                env = {**own.portal_env("upload-s3"), **bucket}
                figures = probe(env, "upload", str(write_csv(folder / "upload-s3", 1, "W")),
                                "--size", str(size), "--max-bytes", str(size))
                rows.append(ratio_row(f"Upload of a {size // MB} MB document to object storage "
                                      "(S3): peak RSS growth vs file size",
                                      figures["growth"] / MB, size / MB, "MB", LIMIT))
    return rows
