"""``flask documents move-to-storage``: every file of the upload folder ends in the bucket, each
copy verified by SHA-256 before the file is deleted; a file whose bytes are not those recorded,
or whose copy reads back differently, stays; a run resumes where one killed with SIGKILL at any
moment stopped, and no file is ever lost on the way."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

from click.testing import Result
from sqlalchemy import select

from portal.app.factory import create_app
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.document import StoredDocument
from portal.core.storage.current import current_store
from portal.core.storage.folder import FolderStore
from portal.domain.onboarding import scenarios
from tests.support.object_store import S3Front, S3Server, keys, objects, on_bucket
from tests.support.rows import MERCHANT_SQL
from tests.support.servers import ROOT, portal_environment, serve

PREFIX = "portal"


def documents_in_folder(settings: Settings, count: int) -> dict[str, bytes]:
    """``count`` documents stored in the upload folder (as before object storage), with their
    rows; their stored names and bytes."""
    app = create_app(settings)
    folder = FolderStore(settings.upload_folder)
    kept = {}
    with app.app_context():
        merchant_id = db.session.execute(MERCHANT_SQL.bindparams(
            ext="move-1", name="Move", status=None)).lastrowid
        for n in range(count):
            content = scenarios.sample_pdf(f"doc-{n}") + os.urandom(2048)
            with folder.incoming() as incoming:
                incoming.sink.write(content)
                incoming.keep(name := f"{uuid.uuid4().hex}.pdf")
            db.session.add(StoredDocument(
                merchant_id=merchant_id, doc_type="GST_CERTIFICATE", original_filename="g.pdf",
                stored_name=name, sha256=hashlib.sha256(content).hexdigest(),
                size=len(content), content_type="application/pdf"))
            kept[name] = content
        db.session.commit()
    return kept


def loose_files(settings: Settings, count: int, size: int) -> dict[str, bytes]:
    """``count`` files of ``size`` bytes in the folder with no row (a bulk import's copies)."""
    folder = FolderStore(settings.upload_folder).within("bulk-imports/3")
    kept = {}
    for n in range(count):
        content = b"%PDF-" + os.urandom(size)
        with folder.incoming() as incoming:
            incoming.sink.write(content)
            incoming.keep(f"{n:03d}.pdf")
        kept[f"bulk-imports/3/{n:03d}.pdf"] = content
    return kept


def left_in_folder(settings: Settings) -> set[str]:
    return {entry.name for entry in FolderStore(settings.upload_folder).listing()}


def move(settings: Settings) -> Result:
    """Run the command in this process, on ``settings``."""
    return create_app(settings).test_cli_runner().invoke(args=["documents", "move-to-storage"])


def test_every_file_moves_into_the_bucket_and_a_second_run_has_nothing_to_do(
        settings, s3_server, s3_bucket):
    files = documents_in_folder(settings, 3) | loose_files(settings, 2, 1024)
    on_s3 = on_bucket(settings, s3_server, s3_bucket, PREFIX)
    done = move(on_s3)
    assert done.exit_code == 0, done.output
    assert "objects are encrypted by the store: AES256 asked for on each object" in done.output
    assert f"Moved {len(files)} file(s)" in done.output
    assert objects(s3_server, s3_bucket) == {f"{PREFIX}/{n}": c for n, c in files.items()}
    assert left_in_folder(settings) == set()
    again = move(on_s3)
    assert again.exit_code == 0 and "Moved 0 file(s)" in again.output


def test_a_file_whose_bytes_are_not_those_recorded_stays_in_the_folder(settings, s3_server,
                                                                         s3_bucket):
    files = documents_in_folder(settings, 2)
    damaged = sorted(files)[0]
    (Path(settings.upload_folder) / damaged).write_bytes(b"%PDF-not the uploaded bytes")
    done = move(on_bucket(settings, s3_server, s3_bucket, PREFIX))
    assert done.exit_code == 1
    assert f"{damaged}: kept in the folder: its bytes are not those recorded" in done.output
    assert left_in_folder(settings) == {damaged}
    assert set(objects(s3_server, s3_bucket)) == {f"{PREFIX}/{sorted(files)[1]}"}


def test_a_copy_that_reads_back_differently_never_lets_its_file_go(settings, s3_server,
                                                                     s3_bucket):
    files = documents_in_folder(settings, 2)
    front = S3Front(s3_server.url, corrupt_reads=True)
    with serve(front) as url:
        done = move(on_bucket(settings, S3Server(url), s3_bucket, PREFIX))
    assert done.exit_code == 1
    assert done.output.count("the store's copy read back differs from it") == 2
    assert left_in_folder(settings) == set(files)  # nothing deleted on a copy not verified
    resumed = move(on_bucket(settings, s3_server, s3_bucket, PREFIX))
    assert resumed.exit_code == 0 and "Moved 2 file(s)" in resumed.output
    assert left_in_folder(settings) == set()


def test_with_the_portal_on_the_bucket_a_file_not_moved_yet_still_downloads(
        settings, s3_server, s3_bucket):
    files = documents_in_folder(settings, 1)
    [(name, content)] = files.items()
    app = create_app(on_bucket(settings, s3_server, s3_bucket, PREFIX))
    with app.app_context():
        document = db.session.scalars(select(StoredDocument)).one()
        from_folder = _read(app, document.stored_name)
    assert from_folder == content  # read from the folder: the bucket has no copy yet
    assert move(on_bucket(settings, s3_server, s3_bucket, PREFIX)).exit_code == 0
    with app.app_context():
        assert _read(app, name) == content  # now from the bucket
    assert left_in_folder(settings) == set()


def _read(app, name: str) -> bytes:
    with current_store().open(name) as stream:
        return stream.read()


#: When each run is killed: before anything reached the bucket, then after a few objects did
#: (each kill lands wherever that run was: hashing, sending, reading back or deleting).
KILL_AFTER = (0, 5, 19)


def test_a_run_killed_at_any_moment_loses_nothing_and_the_next_resumes(
        settings, s3_server, s3_bucket):
    files = documents_in_folder(settings, 4) | loose_files(settings, 32, 64 * 1024)
    on_s3 = on_bucket(settings, s3_server, s3_bucket, PREFIX)
    command = [sys.executable, "-m", "flask", "--app", "app", "documents", "move-to-storage"]
    left: list[int] = []
    for objects_seen in KILL_AFTER:
        with subprocess.Popen(command, cwd=ROOT, env=portal_environment(on_s3),  # noqa: S603
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as run:
            while run.poll() is None and len(keys(s3_server, s3_bucket)) < objects_seen:
                pass  # each look is a round trip to the S3 server
            run.send_signal(signal.SIGKILL)
            run.wait(timeout=30)
        in_bucket = objects(s3_server, s3_bucket)
        in_folder = left_in_folder(settings)
        left.append(len(in_folder))
        for name, content in files.items():  # each file whole in the folder, or in the bucket
            assert name in in_folder or in_bucket.get(f"{PREFIX}/{name}") == content, name
        for name in in_folder:
            assert (Path(settings.upload_folder) / name).read_bytes() == files[name]
    assert any(0 < n < len(files) for n in left), left  # killed in the middle, not only around
    done = move(on_s3)
    assert done.exit_code == 0, done.output
    assert left_in_folder(settings) == set()
    assert {hashlib.sha256(c).hexdigest() for c in files.values()} == {
        hashlib.sha256(c).hexdigest() for c in objects(s3_server, s3_bucket).values()}
