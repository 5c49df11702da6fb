"""Everything the portal holds about one merchant, as a ZIP (for a data-access request).

``merchant.json`` holds the merchant's row, its step drafts, status timeline, documents'
metadata (every version), payments with their refunds, reminders sent, the team's notes and
the audit trail about it; ``documents/`` holds each stored file still kept. Secrets the portal
holds *for* the merchant (payment keys, verification link tokens, a payment's hosted-checkout
link with its ``x-gl-token`` and its pre-authenticated status URL) are not the merchant's data
and stay out. The export holds what the pages show: PANs and account numbers masked to their
last four characters wherever they are (a draft's values, a document's key and file name).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import datetime
from tempfile import SpooledTemporaryFile
from typing import IO, Any

from sqlalchemy import inspect, select

from portal.core.db import Base, db
from portal.core.models import AuditEvent
from portal.core.models.communication import VerificationReminder
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.note import MerchantNote
from portal.core.models.payment import Payment, PaymentRefund
from portal.core.models.pendency import MerchantPendency
from portal.core.models.product_acceptance import MerchantProductAcceptance
from portal.core.models.status_change import StatusChange
from portal.core.models.step import StepDraft
from portal.core.redaction import mask_mapping, mask_pans
from portal.core.storage.base import COPY_CHUNK, DocumentStore
from portal.domain.documents.versions import versions_of

#: Columns that are bookkeeping of secrets, not the merchant's data: the hosted-checkout link
#: carries an ``x-gl-token`` and the status URL is pre-authenticated.
LEFT_OUT = {"pan_index", "action_nonce", "status_url", "redirect_url"}
#: Spooled in memory up to this size, then on disk.
IN_MEMORY_BYTES = 8 * 1024 * 1024


def row(instance: Base) -> dict[str, Any]:
    """A model row as plain JSON-ready values (decrypted, as the ORM reads them)."""
    return {column.key: plain(getattr(instance, column.key))
            for column in inspect(instance).mapper.column_attrs if column.key not in LEFT_OUT}


def plain(value: Any) -> Any:
    """A column value JSON can carry: times as ISO 8601, everything else as it is."""
    return value.isoformat() if isinstance(value, datetime) else value


def rows_of(model: type[Base], *where: Any) -> list[dict[str, Any]]:
    """Every row of ``model`` matching ``where``, oldest first."""
    primary_key = inspect(model).primary_key[0]
    return [row(item) for item in db.session.scalars(select(model).where(*where)
                                                     .order_by(primary_key))]


def merchant_record(merchant: Merchant, documents: list[StoredDocument]) -> dict[str, Any]:
    """What ``merchant.json`` says."""
    payment_ids = select(Payment.id).where(Payment.merchant_id == merchant.id)
    return {
        "merchant": row(merchant),
        "stepDrafts": rows_of(StepDraft, StepDraft.merchant_id == merchant.id),
        "statusChanges": rows_of(StatusChange, StatusChange.merchant_id == merchant.id),
        "pendencies": rows_of(MerchantPendency, MerchantPendency.merchant_id == merchant.id),
        "productAcceptances": rows_of(MerchantProductAcceptance,
                                      MerchantProductAcceptance.merchant_id == merchant.id),
        "documents": [{**row(v.document), "version": v.number, "replaced": v.replaced,
                       "fileInExport": archive_name(v.document, v.number)
                       if v.document.file_kept else None}
                      for v in versions_of(documents)],
        "payments": rows_of(Payment, Payment.merchant_id == merchant.id),
        "refunds": rows_of(PaymentRefund, PaymentRefund.payment_id.in_(payment_ids)),
        "verificationReminders": rows_of(VerificationReminder,
                                         VerificationReminder.merchant_id == merchant.id),
        "notes": rows_of(MerchantNote, MerchantNote.merchant_id == merchant.id),
        "auditTrail": rows_of(AuditEvent, AuditEvent.merchant_id == merchant.id),
    }


def archive_name(document: StoredDocument, version: int) -> str:
    """Where a document's file sits inside the ZIP, PANs masked (an owner's Aadhaar's key holds
    the owner's PAN, and a file name may)."""
    return mask_pans(f"documents/{document.doc_type}-v{version}-{document.original_filename}")


def export_zip(merchant: Merchant, documents: list[StoredDocument],
               store: DocumentStore) -> IO[bytes]:
    """The ZIP of everything about ``merchant`` (its files streamed out of ``store``), rewound
    and ready to send."""
    archive: IO[bytes] = SpooledTemporaryFile(max_size=IN_MEMORY_BYTES)  # noqa: SIM115
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        record = mask_mapping(merchant_record(merchant, documents), mask_pans)
        bundle.writestr("merchant.json", json.dumps(record, indent=2, default=str))
        for version in versions_of(documents):
            if version.document.file_kept:
                add_file(bundle, store, version.document.stored_name,
                         archive_name(version.document, version.number))
    archive.seek(0)
    return archive


def add_file(bundle: zipfile.ZipFile, store: DocumentStore, name: str, archived: str) -> None:
    """Copy the stored file ``name`` into the ZIP as ``archived``, a chunk at a time; a file
    the store no longer has is left out."""
    try:
        source = store.open(name)
    except FileNotFoundError:
        return
    with source, bundle.open(archived, "w") as target:
        shutil.copyfileobj(source, target, COPY_CHUNK)
