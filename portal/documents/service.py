"""Documents: which uploads a merchant needs, checking and storing files, sending them.

A file is accepted by what it contains (PDF, JPEG or PNG magic bytes), never by its name. It is
stored under the upload folder with a generated name and its SHA-256, then sent to the gateway
in its own call as Base64.
"""

from __future__ import annotations

import base64
import hashlib
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import filetype
from sqlalchemy import select
from werkzeug.utils import secure_filename

from portal.audit.service import record
from portal.config import Settings
from portal.db import db
from portal.gateway.onboarding_client import OnboardingClient
from portal.gateway.onboarding_shapes import SOLE_PROP_DOCS
from portal.gateway.shapes import FieldError
from portal.labels import Kind, label
from portal.models.document import DocumentStatus, StoredDocument
from portal.models.merchant import Merchant
from portal.onboarding.drafts import draft_for
from portal.onboarding.locks import lock_reason
from portal.onboarding.result import StepResult
from portal.onboarding.scenarios import sample_pdf
from portal.onboarding.sending import call_gateway
from portal.onboarding.steps import BY_KEY
from portal.private_files import private_folder, write_private

STEP = BY_KEY["documents"]
#: Content types accepted, with the extension their stored copy gets.
ACCEPTED = {"application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png"}
#: Pending keys that are not upload types: any one of these types satisfies them.
CHOICE_KEYS: dict[str, tuple[str, ...]] = {
    "SOLE_PROP_DOC_1_UPLOAD": tuple(SOLE_PROP_DOCS),
    "SOLE_PROP_DOC_2_UPLOAD": tuple(SOLE_PROP_DOCS),
    "FREELANCER_DOC_UPLOAD": ("ITR", "SERVICE_LEVEL_AGREEMENT", "BANK_STATEMENT"),
}
FILE_FIELD = "file"
#: How much of the gateway's answer a version keeps (its column's size).
MAX_ANSWER = 500


@dataclass(frozen=True)
class Slot:
    """One upload the page offers: a pending key (or a sent type) and the types that fit it."""

    key: str
    types: tuple[str, ...]
    outstanding: bool


def documents_of(merchant: Merchant) -> list[StoredDocument]:
    """The merchant's uploads, newest first."""
    return list(db.session.scalars(
        select(StoredDocument).where(StoredDocument.merchant_id == merchant.id)
        .order_by(StoredDocument.uploaded_at.desc(), StoredDocument.id.desc())))


def get_document(merchant: Merchant, document_id: int) -> StoredDocument | None:
    """One of the merchant's uploads, or None (also for another merchant's document)."""
    document = db.session.get(StoredDocument, document_id)
    return document if document is not None and document.merchant_id == merchant.id else None


def slots(merchant: Merchant, documents: list[StoredDocument]) -> list[Slot]:
    """One slot per outstanding document, then re-uploads of sent types until the step locks."""
    offered = [Slot(key, CHOICE_KEYS.get(key, (key,)), True)
               for key in merchant.documents_outstanding]
    if lock_reason(merchant, STEP) is None:
        pending = {t for slot in offered for t in slot.types}
        sent = sorted({d.doc_type for d in documents if d.status == DocumentStatus.SENT} - pending)
        offered += [Slot(doc_type, (doc_type,), False) for doc_type in sent]
    return offered


def read_upload(stream: BinaryIO, max_bytes: int) -> tuple[bytes, str, str]:
    """The file's bytes and content type, or an error message (empty, too large, wrong kind)."""
    content = stream.read(max_bytes + 1)
    if not content:
        return b"", "", "The file is empty."
    if len(content) > max_bytes:
        return b"", "", too_large(max_bytes)
    kind = filetype.guess(content)
    if kind is None or kind.mime not in ACCEPTED:
        return b"", "", ("Only PDF, JPEG and PNG files are accepted, judged by their content: "
                         "this file is none of those, whatever its name says.")
    return content, kind.mime, ""


def too_large(max_bytes: int) -> str:
    """What the page says about a file over the limit (also checked in the browser first)."""
    return (f"The file is larger than the limit of {size_text(max_bytes)}; "
            "scan it at a lower resolution or split it.")


def upload(client: OnboardingClient, settings: Settings, merchant: Merchant, doc_type: str,
           filename: str, stream: BinaryIO, uploaded_by_id: int | None = None) -> StepResult:
    """Check, store and send one document for ``doc_type`` (uploaded by user ``uploaded_by_id``)."""
    if not merchant.onboarding_id:
        return StepResult(False, "Create the merchant at the gateway first (step 1).")
    allowed = {t for slot in slots(merchant, documents_of(merchant)) for t in slot.types}
    if doc_type not in allowed:
        return StepResult(False, "This document type is not expected for this merchant now.")
    content, content_type, error = read_upload(stream, settings.upload_max_bytes)
    if error:
        record("document.refused", outcome="invalid", merchant_id=merchant.id,
               detail={"docType": doc_type, "reason": error})
        db.session.commit()
        return StepResult(False, error, [FieldError(FILE_FIELD, error)])
    document = store(settings, merchant, doc_type, filename, content, content_type,
                     uploaded_by_id)
    return send(client, settings, merchant, document)


def store(settings: Settings, merchant: Merchant, doc_type: str, filename: str,
          content: bytes, content_type: str, uploaded_by_id: int | None = None) -> StoredDocument:
    """Write the file under a generated name outside static/, owner-only, and remember it."""
    folder = private_folder(Path(settings.upload_folder))
    stored_name = f"{uuid.uuid4().hex}.{ACCEPTED[content_type]}"
    write_private(folder / stored_name, content)
    document = StoredDocument(
        merchant_id=merchant.id, doc_type=doc_type,
        original_filename=secure_filename(filename)[:255] or stored_name, stored_name=stored_name,
        sha256=hashlib.sha256(content).hexdigest(), size=len(content),
        content_type=content_type, status=DocumentStatus.STORED, sent_gid="",
        uploaded_by_id=uploaded_by_id, gateway_answer="")
    db.session.add(document)
    merchant.touch()
    record("document.store", merchant_id=merchant.id,
           detail={"docType": doc_type, "size": len(content), "sha256": document.sha256})
    db.session.commit()
    return document


def send(client: OnboardingClient, settings: Settings, merchant: Merchant,
         document: StoredDocument) -> StepResult:
    """Send a stored document in its own call; its status follows the outcome; commits."""
    content = path_of(settings, document).read_bytes()
    body = {"merchantDocType": document.doc_type, "fileName": document.original_filename,
            "documentContent": base64.b64encode(content).decode("ascii")}
    draft = draft_for(merchant, STEP)
    result = call_gateway(client, merchant, STEP, draft, body)
    if result.ok:
        document.status, document.sent_gid = DocumentStatus.SENT, result.gid
        result.message = f"{label(document.doc_type, Kind.DOCUMENT)} sent to the gateway."
        document.gateway_answer = "Accepted"
    else:
        document.status = DocumentStatus.NOT_SENT if result.unavailable else DocumentStatus.REFUSED
        document.gateway_answer = gateway_answer(result)
    db.session.commit()
    return result


def gateway_answer(result: StepResult) -> str:
    """What the gateway said to a send that did not go through, in words, as the version keeps
    it: its messages about the file, else the page's message."""
    answer = " ".join(error.message for error in result.errors) or result.message
    return answer[:MAX_ANSWER]


def upload_samples(client: OnboardingClient, settings: Settings, merchant: Merchant,
                   uploaded_by_id: int | None = None) -> list[StepResult]:
    """Sandbox only: store and send a sample PDF for every outstanding document."""
    results = []
    for slot in slots(merchant, documents_of(merchant)):
        if slot.outstanding:
            doc_type = slot.types[0]
            document = store(settings, merchant, doc_type, f"{doc_type.lower()}.pdf",
                             sample_pdf(doc_type), "application/pdf", uploaded_by_id)
            results.append(send(client, settings, merchant, document))
    return results


def download_name(document: StoredDocument) -> str:
    """The name a download is offered under: the uploader's, with the extension of the type
    its content was checked to be (an ``invoice.html`` that is a PDF saves as ``invoice.pdf``)."""
    stem = Path(document.original_filename).stem or Path(document.stored_name).stem
    return f"{stem}.{ACCEPTED[document.content_type]}"


def path_of(settings: Settings, document: StoredDocument) -> Path:
    """Where a stored document's bytes are."""
    return Path(settings.upload_folder) / document.stored_name


def size_text(count: int) -> str:
    """A byte count as people read it (5 MB, 1,000 bytes)."""
    return f"{count / (1024 * 1024):g} MB" if count >= 1024 * 1024 else f"{count:,} bytes"
