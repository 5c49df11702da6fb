"""An S3-compatible server for the test run: moto's standalone server (``python -m
moto.server``, from the test extras) on a loopback port, one per xdist worker, as PostgreSQL is;
each test that asks gets a bucket of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import boto3
import pytest
import requests

from portal.config import Settings
from tests.support.servers import free_port

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


def objects(server: S3Server, bucket: str, prefix: str = "") -> dict[str, bytes]:
    """Every object in ``bucket`` under ``prefix``, by key."""
    client = server.client()
    listed = client.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])
    return {item["Key"]: client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
            for item in listed}


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
            server.terminate()
            server.wait(timeout=10)


@pytest.fixture
def s3_bucket(s3_server: S3Server) -> str:
    """A new, empty bucket on the run's S3 server."""
    return s3_server.new_bucket()
