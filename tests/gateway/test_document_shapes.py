"""The document upload's shape: content or URL, standard Base64, the size limit, the types."""

from __future__ import annotations

import base64

import pytest

from portal.gateway.onboarding.requests import (
    DocumentUploadRequest,
)
from portal.gateway.onboarding.vocabulary import MAX_DOCUMENT_BYTES
from tests.gateway.shape_samples import (
    DOC_CONTENT,
    messages,
    paths,
)

# ---------------------------------------------------------------- documents


def test_document_with_content_or_url() -> None:
    assert DOC_CONTENT.endswith("=")
    base = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf"}
    assert paths(DocumentUploadRequest, {**base, "documentContent": DOC_CONTENT}) == []
    assert paths(DocumentUploadRequest, {**base, "url": "https://files.example.com/p.pdf"}) == []


def test_document_needs_exactly_one_of_content_and_url() -> None:
    base = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf"}
    both = {**base, "documentContent": DOC_CONTENT, "url": "https://files.example.com/p.pdf"}
    assert paths(DocumentUploadRequest, both) == ["documentContent"]
    assert paths(DocumentUploadRequest, base) == ["documentContent"]


@pytest.mark.parametrize(
    "content",
    [
        "not base64!",
        DOC_CONTENT.rstrip("="),  # padding missing
        base64.urlsafe_b64encode(b"\xfb\xff\xfe\xfb\xef").decode(),  # '-' and '_'
        DOC_CONTENT[:10] + "\n" + DOC_CONTENT[10:],
        "",  # empty document
    ],
)
def test_document_content_must_be_standard_base64(content: str) -> None:
    body = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf", "documentContent": content}
    assert paths(DocumentUploadRequest, body) == ["documentContent"]


def test_document_size_limit() -> None:
    big = base64.b64encode(b"\0" * (MAX_DOCUMENT_BYTES + 1)).decode()
    body = {"merchantDocType": "PAN_CARD", "fileName": "pan.pdf", "documentContent": big}
    assert "larger than 10 MB" in messages(DocumentUploadRequest, body)["documentContent"]


def test_document_type() -> None:
    base = {"fileName": "a.pdf", "documentContent": DOC_CONTENT}
    assert paths(DocumentUploadRequest, {**base, "merchantDocType": "ABCPE1234F_ASHA_AADHAR"}) == []
    # a type beyond the gateway's list is the gateway's to ask for (the sandbox refuses one
    # nobody asked for); the shape refuses what is no type at all
    assert paths(DocumentUploadRequest, {**base, "merchantDocType": "GST_CERTIFICATE"}) == []
    for word in ("selfie", "SELFIE PHOTO", "X", "A" * 65, "_PAN"):
        assert paths(DocumentUploadRequest, {**base, "merchantDocType": word}) == [
            "merchantDocType"], word


