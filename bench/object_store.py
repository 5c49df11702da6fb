"""An S3-compatible server for the benchmarks: moto's standalone server (the test extras) on a
loopback port with one bucket, and the variables that keep a portal's documents there."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec

import boto3

from bench.stack import free_port, process

#: Credentials the server takes (it checks none).
KEY_ID, SECRET = "bench-key", "bench-secret-0123456789"
BUCKET, REGION = "bench-documents", "us-east-1"


@contextmanager
def s3_bucket() -> Iterator[dict[str, str] | None]:
    """The variables of a portal keeping its documents in a fresh bucket of a server on
    loopback; None where moto is not installed."""
    if find_spec("moto") is None:
        yield None
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with process([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)], url):
        boto3.client("s3", endpoint_url=url, region_name=REGION, aws_access_key_id=KEY_ID,
                     aws_secret_access_key=SECRET).create_bucket(Bucket=BUCKET)
        yield {"DOCUMENT_STORAGE": f"s3://{BUCKET}/portal", "DOCUMENT_STORAGE_ENDPOINT": url,
               "DOCUMENT_STORAGE_REGION": REGION, "DOCUMENT_STORAGE_ACCESS_KEY_ID": KEY_ID,
               "DOCUMENT_STORAGE_SECRET_ACCESS_KEY": SECRET}
