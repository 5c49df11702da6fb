"""The API's step 6 through the documents service: the outstanding documents listed, a PDF
uploaded and sent to the sandbox, a file refused by its content or size with the page's words at
the field ``file``, a repeat with its Idempotency-Key stored once."""

from __future__ import annotations

import io

import pytest

from portal.core.config import Settings
from portal.domain.onboarding.scenarios import sample_pdf
from tests.api.support import Api
from tests.verification.support import onboard


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A small upload limit, to send a file over it."""
    return settings.with_changes(upload_max_bytes=20_000)


@pytest.fixture
def owing(app) -> int:
    """A merchant sent up to step 5: its documents are outstanding."""
    return onboard(app, until="signatory")


def upload(api: Api, merchant_id: int, doc_type: str, content: bytes, name: str = "a.pdf",
           idempotency_key: str = ""):
    """POST one file as multipart."""
    extra = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
    return api.client.post(f"/api/v1/merchants/{merchant_id}/documents",
                           data={"docType": doc_type, "file": (io.BytesIO(content), name)},
                           content_type="multipart/form-data", headers=api.headers(extra))


def outstanding(api: Api, merchant_id: int) -> list[str]:
    """The first type of each outstanding slot."""
    slots = api.get(f"/merchants/{merchant_id}/documents").json["slots"]
    return [slot["types"][0] for slot in slots if slot["outstanding"]]


def test_an_outstanding_document_is_uploaded_and_sent(api: Api, owing):
    first, *rest = outstanding(api, owing)
    answer = upload(api, owing, first, sample_pdf(first))
    assert answer.status_code == 201, answer.json
    assert answer.json["status"] == "sent" and answer.json["docType"] == first
    assert first not in outstanding(api, owing) and len(outstanding(api, owing)) == len(rest)
    listed = api.get(f"/merchants/{owing}/documents").json["documents"]
    assert [d["id"] for d in listed] == [answer.json["id"]]


def test_a_file_is_judged_by_its_content_and_its_size(api: Api, owing):
    first = outstanding(api, owing)[0]
    html = upload(api, owing, first, b"<html>not a pdf</html>", "invoice.pdf")
    assert html.status_code == 422 and html.mimetype == "application/problem+json"
    assert html.json["errors"][0]["field"] == "file"
    assert "judged by their content" in html.json["errors"][0]["message"]
    big = upload(api, owing, first, b"%PDF-1.4\n" + b"0" * 30_000)
    assert big.status_code == 422 and "larger than the limit" in big.json["detail"]
    assert api.get(f"/merchants/{owing}/documents").json["documents"] == []


def test_a_missing_file_or_unexpected_type_is_refused_at_its_field(api: Api, owing):
    none = api.client.post(f"/api/v1/merchants/{owing}/documents", data={"docType": "PAN"},
                           content_type="multipart/form-data", headers=api.headers())
    assert none.status_code == 422 and none.json["errors"][0]["field"] == "file"
    odd = upload(api, owing, "NOT_A_TYPE", sample_pdf("PAN"))
    assert odd.status_code == 422 and odd.json["errors"][0]["field"] == "docType"


def test_a_repeat_with_its_idempotency_key_stores_once(api: Api, owing):
    first = outstanding(api, owing)[0]
    one = upload(api, owing, first, sample_pdf(first), idempotency_key="doc-1")
    two = upload(api, owing, first, sample_pdf(first), idempotency_key="doc-1")
    assert one.status_code == two.status_code == 201
    assert two.headers["Idempotent-Replayed"] == "true"
    assert len(api.get(f"/merchants/{owing}/documents").json["documents"]) == 1
