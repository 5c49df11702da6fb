"""Documents: which uploads a merchant needs, checking and storing files, sending them.

A file is accepted by what it contains (PDF, JPEG or PNG magic bytes), never by its name. It is
streamed into the document store (``portal.core.storage``: the upload folder, or object storage)
under a generated name (its type judged from the first chunk, its
size and SHA-256 counted on the way), then sent to the gateway in its own call as Base64, which
the client writes from the stored file as it sends: memory stays bounded whatever the size.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, NamedTuple

import filetype
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.utils import secure_filename

from portal.core.config import Settings
from portal.core.db import db
from portal.core.labels import Kind, label
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.storage.base import DocumentStore, StoredFile
from portal.core.storage.current import store_for
from portal.domain.audit.service import Actor, record
from portal.domain.onboarding.drafts import draft_for
from portal.domain.onboarding.locks import lock_reason
from portal.domain.onboarding.result import StepResult
from portal.domain.onboarding.scenarios import sample_pdf
from portal.domain.onboarding.sending import call_gateway
from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.client import DocumentFile, OnboardingClient
from portal.gateway.onboarding.vocabulary import SOLE_PROP_DOCS
from portal.gateway.shapes import FieldError

STEP = BY_KEY["documents"]
#: The documents step sending a stored file: the client Base64-encodes it as the body is written.
FILE_STEP = replace(STEP, shape=DocumentFile, send=OnboardingClient.upload_document_file)
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
#: How much of an upload is read at a time; the first chunk decides its type.
CHUNK = 64 * 1024


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


class Received(NamedTuple):
    """An upload read through: its size and content type, or why it is refused (``error``),
    and the SHA-256 of its bytes."""

    size: int
    content_type: str
    error: str
    sha256: str


def read_upload(stream: BinaryIO, max_bytes: int, sink: BinaryIO | None = None) -> Received:
    """Read ``stream`` a chunk at a time (copying it to ``sink`` when given): its size, content
    type and SHA-256, or an error message (empty, too large, wrong kind; gettext's, so the
    merchant's link reads it in their language). At most
    ``max_bytes + 1`` bytes are read, and one chunk is held at a time."""
    digest, size, kind = hashlib.sha256(), 0, None
    for chunk in _chunks(stream, max_bytes + 1):
        kind = filetype.guess(chunk) if size == 0 else kind
        size += len(chunk)
        digest.update(chunk)
        if sink is not None:
            sink.write(chunk)
    error = ""
    if size == 0:
        error = _("The file is empty.")
    elif size > max_bytes:
        error = too_large(max_bytes)
    elif kind is None or kind.mime not in ACCEPTED:
        error = _("Only PDF, JPEG and PNG files are accepted, judged by their content: "
                  "this file is none of those, whatever its name says.")
    return Received(size, "" if error or kind is None else kind.mime, error, digest.hexdigest())


def _chunks(stream: BinaryIO, limit: int) -> Iterator[bytes]:
    """``stream`` in chunks of up to CHUNK bytes, ``limit`` bytes in all at most."""
    while limit > 0:
        chunk = stream.read(min(CHUNK, limit))
        if not chunk:
            return
        limit -= len(chunk)
        yield chunk


def save_upload(settings: Settings, stream: BinaryIO) -> tuple[Received, str]:
    """Stream an upload into the document store under a generated name: what was read, and
    the stored file's name ("" when it was refused: nothing is kept then)."""
    return save_stream(stream, store_for(settings), settings.upload_max_bytes)


def save_stream(stream: BinaryIO, store: DocumentStore, max_bytes: int) -> tuple[Received, str]:
    """``save_upload`` into ``store`` with the limit ``max_bytes``."""
    stored_name = ""
    with store.incoming() as incoming:  # refused, or the read failed: nothing stays behind
        received = read_upload(stream, max_bytes, incoming.sink)
        if not received.error:
            stored_name = f"{uuid.uuid4().hex}.{ACCEPTED[received.content_type]}"
            incoming.keep(stored_name)
    return received, stored_name


def too_large(max_bytes: int) -> str:
    """What the page says about a file over the limit (also checked in the browser first)."""
    return _("The file is larger than the limit of %(limit)s; scan it at a lower resolution "
             "or split it.", limit=size_text(max_bytes))


def upload(client: OnboardingClient, settings: Settings, merchant: Merchant, doc_type: str,
           filename: str, stream: BinaryIO, uploaded_by_id: int | None = None, *,
           actor: Actor) -> StepResult:
    """Check, store and send one document for ``doc_type`` (uploaded by user ``uploaded_by_id``;
    audited as ``actor``'s)."""
    if not merchant.onboarding_id:
        return StepResult(False, "Create the merchant at the gateway first (step 1).")
    allowed = {t for slot in slots(merchant, documents_of(merchant)) for t in slot.types}
    if doc_type not in allowed:
        return StepResult(False, "This document type is not expected for this merchant now.")
    document, error = take_upload(settings, merchant, doc_type, filename, stream,
                                  uploaded_by_id, actor=actor)
    if document is None:
        return StepResult(False, error, [FieldError(FILE_FIELD, error)])
    return send(client, settings, merchant, document, actor=actor)


def take_upload(settings: Settings, merchant: Merchant, doc_type: str, filename: str,
                stream: BinaryIO, uploaded_by_id: int | None = None, *, actor: Actor,
                link_id: int | None = None) -> tuple[StoredDocument | None, str]:
    """Check and store one upload of ``doc_type`` (through merchant link ``link_id``, when
    the merchant made it): the stored document, or None and why it was refused (audited,
    nothing kept); commits."""
    received, stored_name = save_upload(settings, stream)
    if received.error:
        record("document.refused", outcome="invalid", merchant_id=merchant.id,
               detail={"docType": doc_type, "reason": received.error}, actor=actor)
        db.session.commit()
        return None, received.error
    return remember(merchant, doc_type, filename, stored_name, received, uploaded_by_id,
                    actor=actor, link_id=link_id), ""


def store(settings: Settings, merchant: Merchant, doc_type: str, filename: str,
          content: bytes, content_type: str, uploaded_by_id: int | None = None, *,
          actor: Actor) -> StoredDocument:
    """Store a file held in memory (a sample) under a generated name, and remember it
    (audited as ``actor``'s)."""
    stored_name = f"{uuid.uuid4().hex}.{ACCEPTED[content_type]}"
    with store_for(settings).incoming() as incoming:
        incoming.sink.write(content)
        incoming.keep(stored_name)
    received = Received(len(content), content_type, "", hashlib.sha256(content).hexdigest())
    return remember(merchant, doc_type, filename, stored_name, received, uploaded_by_id,
                    actor=actor)


def remember(merchant: Merchant, doc_type: str, filename: str, stored_name: str,
             received: Received, uploaded_by_id: int | None = None, *,
             actor: Actor, link_id: int | None = None) -> StoredDocument:
    """Record a stored file as the merchant's upload of ``doc_type``, with its audit entry;
    one made on merchant link ``link_id`` waits for ops' review; commits."""
    document = StoredDocument(
        merchant_id=merchant.id, doc_type=doc_type,
        original_filename=secure_filename(filename)[:255] or stored_name, stored_name=stored_name,
        sha256=received.sha256, size=received.size,
        content_type=received.content_type, sent_gid="", uploaded_by_id=uploaded_by_id,
        status=DocumentStatus.STORED if link_id is None else DocumentStatus.FROM_MERCHANT,
        gateway_answer="", link_id=link_id)
    db.session.add(document)
    merchant.touch()
    record("document.store", merchant_id=merchant.id,
           detail={"docType": doc_type, "size": received.size, "sha256": received.sha256},
           actor=actor)
    db.session.commit()
    return document


def send(client: OnboardingClient, settings: Settings, merchant: Merchant,
         document: StoredDocument, *, actor: Actor) -> StepResult:
    """Send a stored document in its own call (the client reads the file as it sends); its
    status follows the outcome; commits."""
    body = {"merchantDocType": document.doc_type, "fileName": document.original_filename,
            "file": stored_file(settings, document)}
    draft = draft_for(merchant, STEP)
    result = call_gateway(client, merchant, FILE_STEP, draft, body, actor=actor)
    if result.ok:
        document.status, document.sent_gid = DocumentStatus.SENT, result.gid
        said = result.answer.document_status if result.answer else None
        document.gateway_status = said.strip()[:40] if said and said.strip() else None
        if not result.answer_unreadable:
            result.message = f"{label(document.doc_type, Kind.DOCUMENT)} sent to the gateway."
        document.gateway_answer = accepted_words(document.gateway_status,
                                                 result.answer_unreadable)
    else:
        document.status = DocumentStatus.NOT_SENT if result.unavailable else DocumentStatus.REFUSED
        document.gateway_answer = gateway_answer(result)
    db.session.commit()
    return result


def accepted_words(gateway_status: str | None, unreadable: bool = False) -> str:
    """What the gateway said to a document it took, in words, as the version keeps it."""
    if unreadable:
        return "Accepted; its answer could not be read, so the portal read the status instead"
    if gateway_status:
        return f"Accepted; the gateway reports the document as {humanise(gateway_status)}"
    return "Accepted"


def humanise(word: str) -> str:
    """A gateway's status word as people read it: 'PENDING_REVIEW' -> 'pending review'."""
    return word.replace("_", " ").strip().lower()


def gateway_answer(result: StepResult) -> str:
    """What the gateway said to a send that did not go through, in words, as the version keeps
    it: its messages about the file, else the page's message."""
    answer = " ".join(error.message for error in result.errors) or result.message
    return answer[:MAX_ANSWER]


def upload_samples(client: OnboardingClient, settings: Settings, merchant: Merchant,
                   uploaded_by_id: int | None = None, *, actor: Actor) -> list[StepResult]:
    """Sandbox only: store and send a sample PDF for every outstanding document, as
    ``actor``."""
    results = []
    for slot in slots(merchant, documents_of(merchant)):
        if slot.outstanding:
            doc_type = slot.types[0]
            document = store(settings, merchant, doc_type, f"{doc_type.lower()}.pdf",
                             sample_pdf(doc_type), "application/pdf", uploaded_by_id, actor=actor)
            results.append(send(client, settings, merchant, document, actor=actor))
    return results


def download_name(document: StoredDocument) -> str:
    """The name a download is offered under: the uploader's, with the extension of the type
    its content was checked to be (an ``invoice.html`` that is a PDF saves as ``invoice.pdf``)."""
    stem = Path(document.original_filename).stem or Path(document.stored_name).stem
    return f"{stem}.{ACCEPTED[document.content_type]}"


def stored_file(settings: Settings, document: StoredDocument) -> StoredFile:
    """Where a stored document's bytes are."""
    return StoredFile(store_for(settings), document.stored_name)


def size_text(count: int) -> str:
    """A byte count as people read it (5 MB, 1,000 bytes)."""
    return f"{count / (1024 * 1024):g} MB" if count >= 1024 * 1024 else f"{count:,} bytes"
