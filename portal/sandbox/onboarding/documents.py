"""Which documents a record still needs (docs/gateway-facts.md A4), computed from what was
submitted.

The pending list is derived each time from the record, never edited in place, so a resubmitted
section (new owners, a passing penny drop) moves the list the right way on its own.

Sole proprietors: the pending keys ``SOLE_PROP_DOC_1_UPLOAD`` and ``SOLE_PROP_DOC_2_UPLOAD`` are
not upload types. They are satisfied by uploads of *distinct* business proofs from
``SOLE_PROP_DOCS`` (UDYAM, UTILITY_BILL, ...): one distinct proof clears DOC_1, two clear both.
"""

from __future__ import annotations

import re
import unicodedata

from portal.gateway.onboarding.vocabulary import SOLE_PROP_DOCS, EntityType, PennyDropStatus
from portal.sandbox.onboarding.records import OnboardingRecord

OPERATING_ADDRESS_PROOF = "OPERATING_ADDRESS_PROOF"
SOLE_PROP_KEYS = ("SOLE_PROP_DOC_1_UPLOAD", "SOLE_PROP_DOC_2_UPLOAD")
REPRESENTATIVE_DOC = "REPRESENTATIVE_DOC"
PARTNERSHIP_DEED = "PARTNERSHIP_DEED"
PARTNERSHIP_CERTIFICATE = "PARTNERSHIP_REGISTRATION_CERTIFICATE"
LLP_AGREEMENT = "LLP_AGREEMENT"
CANCELLED_CHEQUE = "CANCELLED_CHEQUE"

#: Entity types whose beneficial owners each upload their Aadhaar.
_AADHAR_ENTITIES = frozenset(
    {EntityType.PVT_LTD_COMPANY, EntityType.PUBLIC_LTD_COMPANY, EntityType.PARTNERSHIP_FIRM}
)
_NOT_NAME_CHARS = re.compile(r"[^A-Z0-9]+")


def aadhar_doc_type(pan: str, name: str) -> str:
    """``{PAN}_{NAME}_AADHAR``: the name upper-cased, accents dropped, other runs as ``_``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    cleaned = _NOT_NAME_CHARS.sub("_", plain.upper()).strip("_") or "OWNER"
    return f"{pan}_{cleaned}_AADHAR"


def required_documents(record: OnboardingRecord) -> list[str]:
    """Every document key the submitted sections call for, in a stable order."""
    required: list[str] = []
    business = record.business
    if business is not None:
        if business.address.operating_differs:
            required.append(OPERATING_ADDRESS_PROOF)
        if business.entityType is EntityType.PROPRIETOR:
            required.extend(SOLE_PROP_KEYS)
        if business.entityType in _AADHAR_ENTITIES:
            required.extend(aadhar_doc_type(o.pan, o.name) for o in record.owners or [])
        if business.entityType is EntityType.PARTNERSHIP_FIRM:
            required.append(PARTNERSHIP_DEED)
            if not business.noPartnershipRegistrationCheck:
                required.append(PARTNERSHIP_CERTIFICATE)
        if business.entityType is EntityType.LLP_FIRM:
            required.append(LLP_AGREEMENT)
    if record.signatory is not None and record.owners is not None:
        owner_pans = {o.pan for o in record.owners}
        if record.signatory.authSignatoryPan not in owner_pans:
            required.append(REPRESENTATIVE_DOC)
    if record.penny_drop is PennyDropStatus.FAILED:
        required.append(CANCELLED_CHEQUE)
    return required


def pending_documents(record: OnboardingRecord) -> list[str]:
    """``documentsToBeUploaded``: required keys not yet satisfied, then the review's requests."""
    uploaded = record.uploaded_types()
    sole_prop_proofs = len(uploaded.intersection(SOLE_PROP_DOCS))
    pending = []
    for key in required_documents(record):
        if key in SOLE_PROP_KEYS:
            if sole_prop_proofs <= SOLE_PROP_KEYS.index(key):
                pending.append(key)
        elif key not in uploaded:
            pending.append(key)
    pending.extend(d for d in record.requested_documents if d not in pending)
    return pending
