"""A document upload streamed both ways: the client writes the Base64 body into a spooled file
as it signs it, the sandbox reads it back a chunk at a time and checks the HMAC on the way.
The digest must cover exactly the bytes that arrived, on a retry too."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
from pathlib import Path

import pytest
import requests

from portal.gateway.onboarding.client import ENCODE_CHUNK, DocumentFile, OnboardingClient
from portal.gateway.onboarding.hmac import AUTH_HEADER, DIGEST_HEADER, HmacAuth, hmac_digest
from portal.gateway.onboarding.operations import body_json
from portal.gateway.onboarding.requests import DocumentUploadRequest
from portal.gateway.transport import json_bytes
from portal.sandbox.common.fault_plans import Fault, FaultKind
from portal.sandbox.onboarding import streamed_json
from portal.sandbox.onboarding.streamed_json import SpilledString, parse_spooled, spool
from tests.sandbox.support import KEY, SECRET

MB = 1024 * 1024
#: Long enough that the sandbox leaves the content in its spooled body.
LONG = 3 * streamed_json.SPILL_BYTES
FILE_NAME = 'Zoë "AAAA" Ñúñez.pdf'


def pdf(size: int) -> bytes:
    """``size`` bytes that start like a PDF."""
    head = b"%PDF-1.4\n"
    return (head + bytes(range(256)) * (size // 256 + 1))[:size] if size > len(head) \
        else head[:size]


def as_shape(content: bytes, doc_type: str = "PAN") -> bytes:
    """The body ``upload_document`` sends for ``content``: the shape's JSON, compact."""
    return json_bytes(body_json(DocumentUploadRequest(
        merchantDocType=doc_type, fileName=FILE_NAME,
        documentContent=base64.b64encode(content).decode("ascii"))))


def document_file(tmp_path: Path, content: bytes, doc_type: str = "PAN") -> DocumentFile:
    """A DocumentFile of ``content`` written under ``tmp_path``."""
    path = tmp_path / "upload.pdf"
    path.write_bytes(content)
    return DocumentFile(merchantDocType=doc_type, fileName=FILE_NAME, file=path)


@pytest.mark.parametrize("size", [1, 2, 3, 4, ENCODE_CHUNK - 1, ENCODE_CHUNK, ENCODE_CHUNK + 1,
                                  2 * ENCODE_CHUNK + 2])
def test_the_streamed_body_is_the_shapes_json_byte_for_byte(tmp_path, size):
    content = pdf(size)
    client = OnboardingClient("http://127.0.0.1:9", KEY, SECRET)
    with client.document_body(document_file(tmp_path, content)) as body:
        sent = body.read()
        assert len(body) == len(sent)
    assert sent == as_shape(content)
    assert body.digest == hmac_digest(SECRET, sent)


def test_the_sandbox_receives_exactly_the_bytes_the_digest_covers(sandbox_server, partner,
                                                                   onboarding_id, tmp_path):
    content = pdf(2 * MB + 5)
    answer = partner.upload_document_file(onboarding_id, document_file(tmp_path, content)).record
    expected = as_shape(content)
    received = sandbox_server.backend.received_requests()[-1]
    assert (received.method, received.size) == ("PUT", len(expected))
    assert received.sha256 == hashlib.sha256(expected).hexdigest()
    assert received.digest == hmac_digest(SECRET, expected)
    assert received.body == b""  # a document's body is not kept whole in the log
    assert answer.answer_gid


def test_a_retry_rewinds_the_body_and_sends_all_of_it_again(sandbox_server, onboarding_id,
                                                            tmp_path):
    sandbox_server.state.faults.set(Fault(FaultKind.ERROR, status=503,
                                          operation="upload_document", times=1))
    pauses: list[float] = []
    client = OnboardingClient(sandbox_server.url, KEY, SECRET, sleep=pauses.append)
    content = pdf(LONG)
    client.upload_document_file(onboarding_id, document_file(tmp_path, content))
    assert sandbox_server.state.faults.count() == 1 and len(pauses) == 1
    received = sandbox_server.backend.received_requests()[-1]
    assert received.sha256 == hashlib.sha256(as_shape(content)).hexdigest()


def put_upload(sandbox_server, onboarding_id: str, body: bytes,
               digest: str | None = None) -> requests.Response:
    """PUT ``body`` to the upload path signed as partner p1 (or with ``digest``)."""
    path = f"/gcc/v2/partner/merchant/onboard/{onboarding_id}/docs"
    headers = {"Content-Type": "application/json", AUTH_HEADER: KEY,
               DIGEST_HEADER: digest or hmac_digest(SECRET, body)}
    return requests.put(sandbox_server.url + path, data=body, headers=headers, timeout=10)


def upload_text(content: str, **extra: str) -> bytes:
    """A body whose documentContent is ``content`` as given (valid Base64 or not)."""
    return json.dumps({"merchantDocType": "PAN", "fileName": "a.pdf",
                       "documentContent": content, **extra}).encode("utf-8")


def field_errors(response: requests.Response) -> dict[str, str]:
    """The answer's errorDetails as field -> message."""
    return {e["field"]: e["message"] for e in response.json()["errorDetails"]}


@pytest.mark.parametrize(("content", "message"), [
    ("A" * LONG + "!AAA" + "A" * LONG, "documentContent must be standard Base64"),
    ("A" * LONG + "A=", "documentContent must be standard Base64"),
    ("A" * LONG + "AA==AAAA", "documentContent must be standard Base64"),
    ("A" * LONG + "é" * 4, "documentContent must be standard Base64"),
])
def test_long_content_that_is_not_base64_is_refused_in_the_shapes_words(
        sandbox_server, onboarding_id, content, message):
    response = put_upload(sandbox_server, onboarding_id, upload_text(content))
    assert response.status_code == 400, response.text
    assert field_errors(response) == {"documentContent": message}


def test_long_content_with_json_escapes_is_read_as_json_says(sandbox_server, onboarding_id):
    content = base64.b64encode(b"\xff" * LONG).decode("ascii")  # "/" in every group
    body = json.dumps({"merchantDocType": "PAN", "fileName": "a.pdf",
                       "documentContent": content}).replace("/", "\\/").encode("ascii")
    assert put_upload(sandbox_server, onboarding_id, body).status_code == 200


def test_a_document_over_the_limit_is_refused(sandbox_server, onboarding_id):
    sandbox_server.state.config.maxDocumentBytes = MB
    just_fits = base64.b64encode(b"\0" * MB).decode("ascii")
    assert put_upload(sandbox_server, onboarding_id, upload_text(just_fits)).status_code == 200
    over = base64.b64encode(b"\0" * (MB + 1)).decode("ascii")
    response = put_upload(sandbox_server, onboarding_id, upload_text(over))
    assert response.status_code == 400
    assert field_errors(response) == {"documentContent": "The document is larger than 1 MB"}


def test_other_fields_are_checked_by_the_shape_beside_long_content(sandbox_server,
                                                                   onboarding_id):
    body = upload_text("A" * LONG, merchantDocType="not a type", note="x")
    response = put_upload(sandbox_server, onboarding_id, body)
    assert response.status_code == 400
    assert set(field_errors(response)) == {"merchantDocType", "note"}


def test_a_long_body_with_a_wrong_digest_is_401(sandbox_server, onboarding_id):
    body = upload_text("A" * LONG)
    response = put_upload(sandbox_server, onboarding_id, body, hmac_digest("wrong", body))
    assert response.status_code == 401
    assert sandbox_server.backend.received_requests()[-1].sha256 == ""


@pytest.mark.parametrize("text", [
    '{"a": "short", "b": "' + "x" * 40 + '", "c": ["' + "y" * 9 + '", 1, null]}',
    '{"k": "esc\\"aped \\\\ and \\u00e9 ' + "z" * 30 + '\\n", "' + "long key " * 3 + '": true}',
    '  {"nested": {"deep": "' + "\\/" * 20 + '"}}  ',
    '["' + "q" * 8 + '", "' + "r" * 9 + '"]',
])
def test_a_spooled_body_parses_as_json_does(monkeypatch, text):
    monkeypatch.setattr(streamed_json, "CHUNK", 5)  # strings and escapes cross chunk borders
    monkeypatch.setattr(streamed_json, "SPILL_BYTES", 8)
    body = spool(io.BytesIO(text.encode("utf-8")), hmac.new(b"k", digestmod=hashlib.sha256))
    with body.file:
        assert materialised(parse_spooled(body.file)) == json.loads(text)


def materialised(value):
    """``value`` with every spilled string read back whole."""
    if isinstance(value, SpilledString):
        return value.text()
    if isinstance(value, dict):
        return {k: materialised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [materialised(v) for v in value]
    return value


def test_the_streamed_client_signs_with_its_own_key():
    auth = HmacAuth(KEY, SECRET)
    with auth.signed_body() as body:
        body.write(b'{"a":')
        body.write(b"1}")
        body.finish()
        assert body.digest == hmac_digest(SECRET, b'{"a":1}')
