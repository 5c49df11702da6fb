"""An S3-compatible server for the test run: moto's standalone server (``python -m
moto.server``, from the test extras) on a loopback port, one per xdist worker, as PostgreSQL is;
each test that asks gets a bucket of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import boto3
import pytest
import requests
from werkzeug.wrappers import Request, Response

from portal.core.config import Settings
from tests.support.servers import free_port, stop

#: Credentials the server takes (moto checks none); the portal sends them as a real store's.
ACCESS_KEY_ID, SECRET_ACCESS_KEY = "portal-test-key", "portal-test-secret-0123456789"
REGION = "us-east-1"


@dataclass(frozen=True)
class S3Server:
    """A running S3-compatible server."""

    url: str

    def client(self) -> Any:
        """A boto3 client of the server, for the tests' own looks into a bucket."""
        return boto3.client("s3", endpoint_url=self.url, region_name=REGION,
                            aws_access_key_id=ACCESS_KEY_ID,
                            aws_secret_access_key=SECRET_ACCESS_KEY)

    def new_bucket(self) -> str:
        """An empty bucket of its own."""
        name = f"docs-{uuid.uuid4().hex[:16]}"
        self.client().create_bucket(Bucket=name)
        return name


def on_bucket(settings: Settings, server: S3Server, bucket: str,
              prefix: str = "portal") -> Settings:
    """``settings`` keeping documents in ``bucket`` under ``prefix`` on ``server``."""
    return settings.with_changes(document_storage=f"s3://{bucket}/{prefix}",
                                 storage_endpoint=server.url, storage_region=REGION,
                                 storage_access_key_id=ACCESS_KEY_ID,
                                 storage_secret_access_key=SECRET_ACCESS_KEY)


def keys(server: S3Server, bucket: str) -> list[str]:
    """The keys in ``bucket`` (one listing: cheap enough to poll)."""
    listed = server.client().list_objects_v2(Bucket=bucket).get("Contents", [])
    return [item["Key"] for item in listed]


def objects(server: S3Server, bucket: str, prefix: str = "") -> dict[str, bytes]:
    """Every object in ``bucket`` under ``prefix``, by key."""
    client = server.client()
    listed = client.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])
    return {item["Key"]: client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
            for item in listed}


#: What MinIO answers a write asking for SSE-S3 when it has no KMS configured.
NOT_IMPLEMENTED = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>NotImplemented</Code>'
                   b"<Message>Server side encryption specified but KMS is not configured"
                   b"</Message></Error>")
SSE_HEADER = "x-amz-server-side-encryption"
_HOP_HEADERS = ("content-length", "transfer-encoding", "connection", "content-encoding")


class S3Front:
    """A front on loopback before an S3 server (serve it with ``servers.serve``): requests go on
    as they came, except what the test asks to break: ``refuse_encryption`` refuses a write
    asking for server-side encryption as a store without a KMS does; ``corrupt_reads`` hands
    back every object's body with its first byte changed. ``puts`` counts the writes."""

    def __init__(self, upstream: str, *, refuse_encryption: bool = False,
                 corrupt_reads: bool = False) -> None:
        self.upstream = upstream
        self.refuse_encryption = refuse_encryption
        self.corrupt_reads = corrupt_reads
        self.refused = 0
        self.puts = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request = Request(environ)
        if request.method == "PUT":
            self.puts += 1
            if self.refuse_encryption and SSE_HEADER in request.headers:
                self.refused += 1
                return Response(NOT_IMPLEMENTED, 501, content_type="application/xml")(
                    environ, start_response)
        answer = requests.request(
            request.method, self.upstream + request.full_path.rstrip("?"),
            data=request.get_data(), timeout=10, allow_redirects=False,
            headers={k: v for k, v in request.headers.items() if k.lower() != "host"})
        body = answer.content
        if self.corrupt_reads and request.method == "GET" and answer.ok and body \
                and "list-type" not in request.args and "encryption" not in request.args:
            body = bytes([body[0] ^ 0xFF]) + body[1:]
        headers = [(k, v) for k, v in answer.headers.items() if k.lower() not in _HOP_HEADERS
                   and not k.lower().startswith("x-amz-checksum")]
        return Response(body, answer.status_code, headers=headers)(environ, start_response)


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    """moto's S3 server on a loopback port for the run; skipped where moto is not installed,
    except in CI."""
    if find_spec("moto") is None:
        message = "moto is not installed (make install installs the test extras)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    port = free_port()
    log: Path = tmp_path_factory.mktemp("s3") / "moto.log"
    command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    with log.open("wb") as output, subprocess.Popen(  # noqa: S603 (our own command line)
            command, stdout=output, stderr=subprocess.STDOUT) as server:
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    requests.get(url, timeout=2)
                    break
                except requests.ConnectionError:
                    assert server.poll() is None, log.read_text(errors="replace")
                    assert time.monotonic() < deadline, "the S3 server did not start"
                    time.sleep(0.05)
            yield S3Server(url)
        finally:
            stop(server)


@pytest.fixture
def s3_bucket(s3_server: S3Server) -> str:
    """A new, empty bucket on the run's S3 server."""
    return s3_server.new_bucket()
