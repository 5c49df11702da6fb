"""Both backends keep the one interface's promises: a file is kept only when asked, read back
whole and streamed, missing as FileNotFoundError, deleted (also under a prefix), listed, and seen
from inside a prefix. The S3 backend runs over HTTP against the run's S3 server."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from portal.core.storage.base import DocumentStore, StoredFile
from portal.core.storage.current import build_store
from portal.core.storage.fallback import WithFolderBehind
from portal.core.storage.folder import FolderStore
from portal.core.storage.s3 import PART_BYTES
from tests.support.object_store import S3Server, objects, on_bucket
from tests.support.settings import settings_for


@pytest.fixture(params=["folder", "s3"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> DocumentStore:
    """A store of each backend, empty."""
    settings = settings_for("sqlite://", "http://127.0.0.1:9", tmp_path)
    if request.param == "s3":
        server: S3Server = request.getfixturevalue("s3_server")
        settings = on_bucket(settings, server, server.new_bucket())
    return build_store(settings)


def put(store: DocumentStore, name: str, content: bytes) -> None:
    with store.incoming() as incoming:
        incoming.sink.write(content)
        incoming.keep(name)


def read(store: DocumentStore, name: str) -> bytes:
    with store.open(name) as stream:
        return stream.read()


def test_a_kept_file_reads_back_whole_and_an_unkept_one_leaves_nothing(store):
    put(store, "a.pdf", b"%PDF-kept")
    with store.incoming() as incoming:
        incoming.sink.write(b"%PDF-refused")  # never kept
    with pytest.raises(RuntimeError), store.incoming() as incoming:
        incoming.sink.write(b"%PDF-half")
        raise RuntimeError("the upload broke off")
    assert read(store, "a.pdf") == b"%PDF-kept"
    assert [entry.name for entry in store.listing()] == ["a.pdf"]


def test_a_missing_file_is_file_not_found_and_deleting_it_is_no_error(store):
    with pytest.raises(FileNotFoundError):
        store.open("nothing.pdf")
    store.delete("nothing.pdf")
    put(store, "a.pdf", b"x")
    store.delete("a.pdf")
    with pytest.raises(FileNotFoundError):
        store.open("a.pdf")


def test_reads_give_whole_chunks_until_the_end(store):
    content = bytes(range(256)) * 1000 + b"tail"
    put(store, "big.pdf", content)
    with StoredFile(store, "big.pdf").open() as stream:
        chunks = list(iter(lambda: stream.read(3 * 1024), b""))
    assert b"".join(chunks) == content
    assert {len(chunk) for chunk in chunks[:-1]} == {3 * 1024}  # the gateway's Base64 needs it


def test_a_prefix_is_a_store_of_its_own_and_deleted_as_one(store):
    put(store, "keep.pdf", b"k")
    inside = store.within("bulk-imports/7")
    put(inside, "a.pdf", b"a")
    put(inside, "b.pdf", b"b")
    put(store.within("bulk-imports/8"), "c.pdf", b"c")
    assert read(inside, "a.pdf") == b"a" and read(store, "bulk-imports/7/b.pdf") == b"b"
    assert sorted(e.name for e in store.listing("bulk-imports/")) == [
        "bulk-imports/7/a.pdf", "bulk-imports/7/b.pdf", "bulk-imports/8/c.pdf"]
    assert sorted(e.name for e in inside.listing()) == ["a.pdf", "b.pdf"]
    store.delete_under("bulk-imports/7")
    assert sorted(e.name for e in store.listing()) == ["bulk-imports/8/c.pdf", "keep.pdf"]


def test_a_file_larger_than_a_part_is_stored_whole(store):
    content = b"%PDF-1.4\n" + hashlib.sha256(b"seed").digest() * (PART_BYTES // 16)
    with store.incoming() as incoming:
        for start in range(0, len(content), 1 << 20):
            incoming.sink.write(content[start:start + (1 << 20)])
        incoming.keep("large.pdf")
    assert hashlib.sha256(read(store, "large.pdf")).digest() == hashlib.sha256(content).digest()


def test_objects_go_under_the_prefix_with_the_stores_encryption(s3_server, s3_bucket, tmp_path):
    settings = on_bucket(settings_for("sqlite://", "http://127.0.0.1:9", tmp_path), s3_server,
                         s3_bucket, prefix="team/docs")
    store = build_store(settings)
    put(store, "a.pdf", b"%PDF-a")
    assert objects(s3_server, s3_bucket) == {"team/docs/a.pdf": b"%PDF-a"}
    head = s3_server.client().head_object(Bucket=s3_bucket, Key="team/docs/a.pdf")
    assert head["ServerSideEncryption"] == "AES256"  # the bucket has no default: asked for
    assert "AES256 asked for on each object" in store.encryption
    # nothing of the upload stays on this host: its spool is gone
    assert [p for p in Path(settings.upload_folder).rglob("*") if p.is_file()] == []


def test_a_bucket_with_default_encryption_keeps_its_owners_choice(s3_server, s3_bucket, tmp_path):
    s3_server.client().put_bucket_encryption(Bucket=s3_bucket, ServerSideEncryptionConfiguration={
        "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "aws:kms"}}]})
    store = build_store(on_bucket(settings_for("sqlite://", "http://127.0.0.1:9", tmp_path),
                                  s3_server, s3_bucket))
    put(store, "a.pdf", b"%PDF-a")
    head = s3_server.client().head_object(Bucket=s3_bucket, Key="portal/a.pdf")
    assert head["ServerSideEncryption"] == "aws:kms"  # not overridden by an AES256 of ours
    assert store.encryption == "encrypted by the store: the bucket's default (aws:kms)"


def test_a_file_not_moved_yet_is_read_from_the_folder_and_deleted_from_both(
        s3_server, s3_bucket, tmp_path):
    settings = on_bucket(settings_for("sqlite://", "http://127.0.0.1:9", tmp_path), s3_server,
                         s3_bucket)
    store = build_store(settings)
    assert isinstance(store, WithFolderBehind)
    put(FolderStore(settings.upload_folder), "old.pdf", b"%PDF-old")
    put(store, "new.pdf", b"%PDF-new")
    assert read(store, "old.pdf") == b"%PDF-old" and read(store, "new.pdf") == b"%PDF-new"
    assert set(objects(s3_server, s3_bucket)) == {"portal/new.pdf"}  # new files: the bucket
    store.delete("old.pdf")
    with pytest.raises(FileNotFoundError):
        store.open("old.pdf")
    assert not (Path(settings.upload_folder) / "old.pdf").exists()


def test_a_closed_stream_of_an_object_reads_no_more(store):
    put(store, "a.pdf", b"%PDF-a")
    stream = store.open("a.pdf")
    stream.close()
    with pytest.raises(ValueError):
        stream.read()
