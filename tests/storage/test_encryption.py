"""How the portal tells whether to ask for server-side encryption, as a table: the bucket's
default wins, a bucket without one (or a store that will not say) gets AES256 asked for, and a
refusal of it as not offered falls back to none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import requests
from werkzeug.wrappers import Request, Response

from portal.storage.current import build_store
from portal.storage.encryption import ASKED, NO_DEFAULT, from_bucket, refused
from tests.conftest import settings_for
from tests.support.object_store import (
    ACCESS_KEY_ID,
    SECRET_ACCESS_KEY,
    S3Server,
    objects,
    on_bucket,
)
from tests.support.servers import serve


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


#: What MinIO answers a write asking for SSE-S3 when it has no KMS configured.
NOT_IMPLEMENTED = (b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>NotImplemented</Code>'
                   b"<Message>Server side encryption specified but KMS is not configured"
                   b"</Message></Error>")


class RefusingEncryption:
    """An S3 front on loopback: every request goes on to the S3 server as it came, except a
    write asking for server-side encryption, refused as a store without a KMS refuses it."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.refused = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request = Request(environ)
        if request.method == "PUT" and SSE_HEADER in request.headers:
            self.refused += 1
            return Response(NOT_IMPLEMENTED, 501, content_type="application/xml")(
                environ, start_response)
        answer = requests.request(
            request.method, self.upstream + request.full_path.rstrip("?"),
            data=request.get_data(), timeout=10, allow_redirects=False,
            headers={k: v for k, v in request.headers.items() if k.lower() != "host"})
        headers = [(k, v) for k, v in answer.headers.items()
                   if k.lower() not in ("content-length", "transfer-encoding", "connection",
                                        "content-encoding")]
        return Response(answer.content, answer.status_code, headers=headers)(
            environ, start_response)


SSE_HEADER = "x-amz-server-side-encryption"


def test_a_store_that_refuses_encryption_gets_the_object_without_it_and_a_warning(
        s3_server, s3_bucket, tmp_path, caplog):
    front = RefusingEncryption(s3_server.url)
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
