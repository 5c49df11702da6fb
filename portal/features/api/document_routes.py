"""The API's step 6: which documents are outstanding, an upload checked, stored and sent as the
documents page does it (``portal.domain.documents.service``: type by content, size limit), and a
stored document sent again."""

from __future__ import annotations

from flask import request

from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.models.document import StoredDocument
from portal.domain.api.scopes import Scope
from portal.domain.documents import service
from portal.domain.onboarding.result import StepResult
from portal.features.api.merchant_routes import found_merchant
from portal.features.api.more_schemas import DocumentOut, DocumentSlot, DocumentsOut, DocumentUpload
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.gateway.shapes import FieldError

RULE = "/merchants/<int:merchant_id>/documents"


def document_out(document: StoredDocument) -> DocumentOut:
    """A stored upload as the API shows it."""
    return DocumentOut(id=document.id, docType=document.doc_type,
                       fileName=document.original_filename, size=document.size,
                       sha256=document.sha256, status=document.status,
                       gatewayAnswer=document.gateway_answer, uploadedAt=document.uploaded_at)


def _refused(result: StepResult, document: StoredDocument | None) -> Problem:
    kept = f" (stored as document {document.id}; send it again later)" if document else ""
    errors = result.errors or ([] if document else [FieldError("docType", result.message)])
    return Problem(503 if result.unavailable else 422, result.message + kept, errors)


@operation(RULE, "GET", scope=Scope.READ_MERCHANTS, answer=DocumentsOut,
           summary="The documents outstanding, and the uploads so far")
def list_documents(call: Call, merchant_id: int) -> Answer:
    """The documents page's slots and versions."""
    merchant = found_merchant(merchant_id)
    documents = service.documents_of(merchant)
    return Answer(DocumentsOut(
        slots=[DocumentSlot(key=s.key, types=list(s.types), outstanding=s.outstanding)
               for s in service.slots(merchant, documents)],
        documents=[document_out(d) for d in documents]))


@operation(RULE, "POST", scope=Scope.WRITE_MERCHANTS, status=201, answer=DocumentOut,
           summary="Upload a document (multipart): checked, stored and sent to the gateway",
           body=DocumentUpload, files=("file",))
def upload_document(call: Call, merchant_id: int) -> Answer:
    """Check, store and send one file, as an upload on the documents page does."""
    merchant = found_merchant(merchant_id)
    before = {d.id for d in service.documents_of(merchant)}
    upload = request.files["file"]
    result = service.upload(current_onboarding_client(), current_settings(), merchant,
                            call.body["docType"], upload.filename or "", upload.stream,
                            actor=call.actor)
    document = next((d for d in service.documents_of(merchant) if d.id not in before), None)
    if not result.ok:
        raise _refused(result, document)
    assert document is not None
    return Answer(document_out(document), 201, f"/api/v1/merchants/{merchant.id}/documents")


@operation(RULE + "/<int:document_id>/send", "POST", scope=Scope.WRITE_MERCHANTS,
           answer=DocumentOut, summary="Send a stored document again (the gateway was away)")
def send_document(call: Call, merchant_id: int, document_id: int) -> Answer:
    """Send the stored file again, as the documents page's Send again button does."""
    merchant = found_merchant(merchant_id)
    document = service.get_document(merchant, document_id)
    if document is None:
        raise Problem(404, f"Merchant {merchant_id} has no document {document_id}.")
    result = service.send(current_onboarding_client(), current_settings(), merchant, document,
                          actor=call.actor)
    if not result.ok:
        raise _refused(result, document)
    return Answer(document_out(document))
