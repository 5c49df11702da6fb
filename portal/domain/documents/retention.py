"""Retention: a merchant's stored document files are deleted a set number of days after its
onboarding reached a final status (approved or rejected), or after it was deactivated
(``portal.domain.pausing``), from whichever store keeps them (``portal.core.storage``); each
version's record stays."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, exists, or_, select

from portal.core.db import db
from portal.core.models.document import StoredDocument
from portal.core.models.merchant import Merchant
from portal.core.models.status_change import StatusChange
from portal.core.onboarding_statuses import FINAL_STATUSES
from portal.core.storage.base import DocumentStore
from portal.domain.audit.service import Actor, record

#: Who the audit trail names as deleting the files.
ACTOR = Actor("retention")


def expired_documents(retention_days: int, now: datetime) -> list[StoredDocument]:
    """Kept files of merchants whose final status, or deactivation, is at least
    ``retention_days`` old."""
    cutoff = now - timedelta(days=retention_days)
    final_long_ago = exists().where(StatusChange.merchant_id == Merchant.id,
                                    StatusChange.to_status == Merchant.status,
                                    StatusChange.at <= cutoff)
    return list(db.session.scalars(
        select(StoredDocument).join(Merchant, Merchant.id == StoredDocument.merchant_id)
        .where(StoredDocument.file_deleted_at.is_(None),
               or_(and_(Merchant.status.in_(FINAL_STATUSES), final_long_ago),
                   Merchant.deactivated_at <= cutoff))
        .order_by(StoredDocument.id)))


def delete_expired_files(store: DocumentStore, retention_days: int, now: datetime) -> int:
    """Delete the files retention no longer allows; return how many. 0 days keeps everything.

    Each deletion is recorded on its row and in the audit trail in one commit with the file's
    deletion done first, so a crash between the two leaves a row that the next run completes.
    """
    if retention_days <= 0:
        return 0
    documents = expired_documents(retention_days, now)
    for document in documents:
        store.delete(document.stored_name)
        document.file_deleted_at = now
        record("document.file_deleted", actor=ACTOR, merchant_id=document.merchant_id,
               detail={"docType": document.doc_type, "sha256": document.sha256,
                       "retentionDays": retention_days})
        db.session.commit()
    return len(documents)
