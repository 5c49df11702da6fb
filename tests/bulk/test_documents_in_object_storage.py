"""With documents in object storage, a bulk import's ZIP is staged in the bucket, so a worker on
another host (another upload folder) sends the rows' documents; the copies go when it ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from portal.app.factory import create_app
from portal.core.config import Settings
from tests.bulk.document_uploads import example_docs, problems, upload, zipped
from tests.bulk.support import EXAMPLE, received
from tests.support.object_store import S3Server, objects, on_bucket
from tests.support.workers import run_worker

PREFIX = "portal"


@pytest.fixture
def settings(settings: Settings, s3_server: S3Server, s3_bucket: str) -> Settings:
    """The page's host keeps documents in the bucket."""
    return on_bucket(settings, s3_server, s3_bucket, PREFIX)


def test_a_worker_on_another_host_sends_the_documents_staged_in_the_bucket(
        auth, client, app, sandbox, settings, s3_server, s3_bucket, tmp_path):
    auth.login("admin")
    response = upload(client, EXAMPLE.read_bytes(), zipped(example_docs()))
    assert response.status_code == 302, problems(response)
    import_id = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    staged = objects(s3_server, s3_bucket, f"{PREFIX}/bulk-imports/{import_id}/")
    assert sorted(staged.values()) == sorted(set(example_docs().values()))
    assert [p for p in Path(settings.upload_folder).rglob("*") if p.is_file()] == []

    elsewhere = create_app(settings.with_changes(upload_folder=str(tmp_path / "worker-host")))
    run_worker(elsewhere)
    sent = [r for r in received(sandbox, "PUT") if r.raw_path.endswith("/docs")]
    assert len(sent) == 9 * 2 + 2  # every row's documents, read from the bucket
    left = objects(s3_server, s3_bucket, f"{PREFIX}/")
    assert not [key for key in left if "/bulk-imports/" in key]  # the copies went at the end
    assert len(left) == len(sent)  # each sent document kept once, in the bucket
    assert [p for p in (tmp_path / "worker-host").rglob("*") if p.is_file()] == []
