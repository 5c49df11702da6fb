"""Deleting a merchant abandoned before its create reached the gateway.

Only a merchant the gateway cannot have goes: its create was never sent, or was answered with a
refusal (create state ``draft``, no onboarding id). A create sent without an answer
(``outcome_unknown``, also while it is in flight) or refused as a reused id
(``needs_reconcile``) may exist at the gateway and must be reconciled, never deleted. Its drafts,
queued sends, links and uploaded documents go with it, their stored files too; the audit trail
keeps the deletion.
"""

from __future__ import annotations

from sqlalchemy import delete

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.audit.service import Actor, record
from portal.domain.documents.service import documents_of, stored_file

ACTION = "merchant.delete"


def can_delete(merchant: Merchant) -> bool:
    """Whether the gateway cannot have ``merchant``: its create never reached it."""
    return merchant.create_state == CreateState.DRAFT and merchant.onboarding_id is None


def delete_abandoned(settings: Settings, merchant: Merchant, actor: Actor) -> bool:
    """Delete ``merchant``, its rows and its stored files if ``can_delete``; audited as
    ``actor``'s; commits.

    The delete re-checks the create state in SQL, so a create sent meanwhile (which marks the
    merchant ``outcome_unknown`` before it leaves) keeps the merchant. False when kept.
    """
    if not can_delete(merchant):
        return False
    files = [stored_file(settings, document) for document in documents_of(merchant)]
    merchant_id, external_id, name = merchant.id, merchant.external_onboarding_id, merchant.name
    deleted = db.session.execute(
        delete(Merchant).where(Merchant.id == merchant_id,
                               Merchant.create_state == CreateState.DRAFT,
                               Merchant.onboarding_id.is_(None)),
        execution_options={"synchronize_session": False})
    if deleted.rowcount != 1:
        db.session.rollback()
        return False
    db.session.expunge(merchant)
    record(ACTION, actor=actor, merchant_id=merchant_id,
           detail={"externalOnboardingId": external_id, "name": name, "documents": len(files)})
    db.session.commit()
    for file in files:  # after the commit: a failed delete keeps the files its rows name
        file.store.delete(file.name)
    return True
