"""How the portal tells whether to ask for server-side encryption, as a table: the bucket's
default wins, a bucket without one (or a store that will not say) gets AES256 asked for, and a
refusal of it as not offered falls back to none."""

from __future__ import annotations

import pytest

from portal.core.storage.current import build_store
from portal.core.storage.encryption import ASKED, NO_DEFAULT, from_bucket, refused
from tests.support.object_store import (
    ACCESS_KEY_ID,
    SECRET_ACCESS_KEY,
    S3Front,
    S3Server,
    objects,
    on_bucket,
)
from tests.support.servers import serve
from tests.support.settings import settings_for


def rule(algorithm: str) -> dict:
    return {"ServerSideEncryptionConfiguration": {"Rules": [
        {"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": algorithm}}]}}


@pytest.mark.parametrize(("answer", "code", "arguments", "words"), [
    (rule("aws:kms"), "", {}, "the bucket's default (aws:kms)"),
    (rule("AES256"), "", {}, "the bucket's default (AES256)"),
    (None, NO_DEFAULT, ASKED, "the bucket has no default encryption"),
    (None, "AccessDenied", ASKED, "the store did not say"),
    (None, "NotImplemented", ASKED, "the store did not say"),
    ({"ServerSideEncryptionConfiguration": {"Rules": []}}, "", ASKED, "the store did not say"),
])
def test_the_choice_follows_the_buckets_answer(answer, code, arguments, words):
    choice = from_bucket(answer, code)
    assert choice.arguments == arguments and words in choice.words


@pytest.mark.parametrize(("code", "not_offered"), [
    ("NotImplemented", True), ("InvalidRequest", True), ("InvalidArgument", True),
    ("KMS.NotFoundException", True), ("AccessDenied", False), ("NoSuchBucket", False),
    ("SlowDown", False), ("", False),
])
def test_a_refusal_as_not_offered_is_told_from_other_errors(code, not_offered):
    assert refused(code) is not_offered


def test_a_store_that_refuses_encryption_gets_the_object_without_it_and_a_warning(
        s3_server, s3_bucket, tmp_path, caplog):
    front = S3Front(s3_server.url, refuse_encryption=True)
    with serve(front) as url:
        settings = on_bucket(settings_for("sqlite://", "http://127.0.0.1:9", tmp_path),
                             S3Server(url), s3_bucket)
        store = build_store(settings)
        for name in ("a.pdf", "b.pdf"):
            with store.incoming() as incoming:
                incoming.sink.write(b"%PDF-" + name.encode())
                incoming.keep(name)
    assert objects(s3_server, s3_bucket) == {"portal/a.pdf": b"%PDF-a.pdf",
                                             "portal/b.pdf": b"%PDF-b.pdf"}
    assert front.refused == 1  # asked once; the second object is written without asking
    assert store.encryption.startswith("not encrypted by the store")
    warnings = [r.getMessage() for r in caplog.records if r.name == "portal.storage"]
    assert len(warnings) == 1 and "refused server-side encryption (NotImplemented)" in warnings[0]
    assert ACCESS_KEY_ID not in caplog.text and SECRET_ACCESS_KEY not in caplog.text
