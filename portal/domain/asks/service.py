"""The documents asked of a merchant, where each stands, and the merchant's answers through
their link: taken with the documents step's checks (``portal.domain.documents``), kept
waiting for ops' review, then sent to the gateway by ops or refused with a reason the
merchant reads.

A document is asked while the gateway's ``documentsToBeUploaded`` names it and the onboarding
is not final (the review's RFI adds its requests to that list). The merchant's page knows an
ask by an opaque reference, never by the gateway's key (an owner's embeds their PAN).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum
from typing import BinaryIO

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.core.models.document_ask import DocumentAsk
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.verification import MerchantLink
from portal.domain.asks import wording
from portal.domain.audit.service import Actor, record
from portal.domain.documents import service as documents
from portal.domain.onboarding.progress import documents_asked
from portal.domain.onboarding.result import StepResult
from portal.gateway.onboarding.client import OnboardingClient


class AskState(StrEnum):
    """Where one asked document stands, as the merchant's link shows it."""

    ASKED = "asked"
    WAITING = "waiting"
    REFUSED = "refused"
    SENT = "sent"


#: A merchant's upload's status, as the state of the ask it answers.
_STATE = {DocumentStatus.FROM_MERCHANT: AskState.WAITING,
          DocumentStatus.NOT_SENT: AskState.WAITING,
          DocumentStatus.REFUSED: AskState.WAITING,
          DocumentStatus.NOT_TAKEN: AskState.REFUSED}
#: The states in which the merchant may upload.
UPLOADABLE = frozenset({AskState.ASKED, AskState.REFUSED})
#: The statuses of a merchant's upload that ops may still send.
SENDABLE = frozenset({DocumentStatus.FROM_MERCHANT, DocumentStatus.NOT_SENT,
                      DocumentStatus.REFUSED})


@dataclass(frozen=True)
class Ask:
    """One document asked of the merchant, or one they sent that is no longer asked."""

    key: str
    ref: str
    types: tuple[str, ...]
    state: AskState
    merchant_words: str
    ops_words: str
    #: The merchant's newest upload for it (None: none yet).
    latest: StoredDocument | None

    @property
    def uploadable(self) -> bool:
        """Whether the merchant's link offers an upload for it."""
        return self.state in UPLOADABLE


def reference(secret_key: str, merchant: Merchant, key: str) -> str:
    """The opaque name of ask ``key`` on the merchant's page."""
    message = f"{merchant.id}:{key}".encode()
    return hmac.new(secret_key.encode(), message, hashlib.sha256).hexdigest()[:20]


def merchant_uploads(merchant: Merchant) -> list[StoredDocument]:
    """What the merchant uploaded on their links, newest first."""
    return [d for d in documents.documents_of(merchant) if d.link_id is not None]


def asks_of(merchant: Merchant, secret_key: str, partner: str) -> list[Ask]:
    """The documents asked of the merchant, each with its state, then those they sent that
    the gateway no longer asks for."""
    uploads = merchant_uploads(merchant)
    written = wording.written_for(merchant)
    slots = [s for s in documents.slots(merchant, documents.documents_of(merchant))
             if s.outstanding] if documents_asked(merchant) else []
    found = []
    for slot in slots:
        latest = next((d for d in uploads if d.doc_type in slot.types), None)
        state = _STATE.get(DocumentStatus(latest.status), AskState.ASKED) if latest \
            else AskState.ASKED
        found.append(_ask(merchant, secret_key, partner, slot.key, slot.types, state, latest,
                          written))
    asked = {t for slot in slots for t in slot.types}
    for upload in uploads:
        if upload.status == DocumentStatus.SENT and upload.doc_type not in asked:
            asked.add(upload.doc_type)
            found.append(_ask(merchant, secret_key, partner, upload.doc_type,
                              (upload.doc_type,), AskState.SENT, upload, written))
    return found


def _ask(merchant: Merchant, secret_key: str, partner: str, key: str, types: tuple[str, ...],
         state: AskState, latest: StoredDocument | None,
         written: dict[str, DocumentAsk]) -> Ask:
    return Ask(key, reference(secret_key, merchant, key), types, state,
               wording.merchant_words(key, written.get(key), partner),
               wording.ops_words(key, written.get(key)), latest)


def receive(settings: Settings, merchant: Merchant, link: MerchantLink, ask: Ask,
            type_index: int, filename: str, stream: BinaryIO, actor: Actor) -> str:
    """Take the merchant's file for ``ask`` (its ``type_index``-th type) through the documents
    step's checks, kept waiting for ops' review: '' when taken, else why not, in the
    merchant's words; a taken file is noticed to the merchant's owner; commits."""
    doc_type = ask.types[type_index] if 0 <= type_index < len(ask.types) else ask.types[0]
    document, error = documents.take_upload(settings, merchant, doc_type, filename, stream,
                                            actor=actor, link_id=link.id)
    if document is not None:  # the owner reviews it
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.MERCHANT_UPLOAD))
        db.session.commit()
    return error


def send(client: OnboardingClient, settings: Settings, merchant: Merchant,
         document: StoredDocument, actor: Actor) -> StepResult:
    """Ops reviewed the merchant's upload: send it to the gateway as the documents step does,
    audited; commits."""
    result = documents.send(client, settings, merchant, document, actor=actor)
    record("document.review_send", actor=actor, merchant_id=merchant.id,
           outcome="ok" if result.ok else "failed",
           detail={"docType": document.doc_type, "sha256": document.sha256})
    db.session.commit()
    return result


def refuse(merchant: Merchant, document: StoredDocument, reason: str, actor: Actor) -> None:
    """Ops refused the merchant's upload: the merchant reads ``reason`` on their link and is
    asked again; audited; commits."""
    document.status, document.refusal = DocumentStatus.NOT_TAKEN, reason
    record("document.review_refuse", actor=actor, merchant_id=merchant.id,
           detail={"docType": document.doc_type, "reason": reason})
    db.session.commit()


def reviewable(merchant: Merchant, document_id: int) -> StoredDocument | None:
    """One of the merchant's uploads made on a link that ops may still send or refuse."""
    document = documents.get_document(merchant, document_id)
    if document is None or document.link_id is None or document.status not in SENDABLE:
        return None
    return document
