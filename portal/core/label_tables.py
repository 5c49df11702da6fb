"""The words for every code the portal stores or the gateway sends, one table per kind.

``portal.core.labels`` looks codes up here; ``tests/core/test_labels.py`` checks every enum
member has an entry. A code without one is shown as it is.
"""

from __future__ import annotations

from enum import StrEnum

from portal.core.audit_labels import AUDIT_ACTIONS, OUTCOMES
from portal.core.models.document import DocumentStatus
from portal.core.models.merchant import CreateState
from portal.core.models.payment import RefundState
from portal.core.models.status_change import StatusSource
from portal.core.models.step import StepState
from portal.core.onboarding_statuses import LABELS as ONBOARDING_STATUS_LABELS
from portal.core.payment_statuses import LABELS as PAYMENT_STATUS_LABELS
from portal.gateway.onboarding.checklist_words import WORDS as CHECKLIST_WORDS
from portal.gateway.onboarding.vocabulary import (
    AccountType,
    CardNetwork,
    EntityType,
    FeeType,
    PennyDropStatus,
    Product,
)

#: The status filter's and the dashboard's value for merchants the gateway does not know yet.
NOT_CREATED = "NOT_CREATED"


class Kind(StrEnum):
    """Which table a code is looked up in."""

    STATUS = "status"
    CHECKLIST_ITEM = "checklist_item"
    CHECKLIST_STATE = "checklist_state"
    PRODUCT = "product"
    CARD_NETWORK = "card_network"
    FEE_TYPE = "fee_type"
    ENTITY_TYPE = "entity_type"
    ACCOUNT_TYPE = "account_type"
    DOCUMENT = "document"
    DOCUMENT_STATUS = "document_status"
    PAYMENT_STATUS = "payment_status"
    REFUND_STATE = "refund_state"
    PENNY_DROP = "penny_drop"
    CREATE_STATE = "create_state"
    STEP_STATE = "step_state"
    STATUS_SOURCE = "status_source"
    AUDIT_ACTION = "audit_action"
    OUTCOME = "outcome"


_STATUS = {
    NOT_CREATED: "Not created yet",
    **ONBOARDING_STATUS_LABELS,
    # The names some of the gateway's pages use (onboarding_shapes.STATUS_ALIASES).
    "UNDER_REVIEW": "Under review",
    "VERIFICATION_COMPLETE": "Verification complete",
    "ACCEPTED": "Accepted",
}

_CHECKLIST_ITEM = {
    "businessDetails": "Business details",
    "beneficialOwners": "Beneficial owners",
    "bankDetails": "Bank details",
    "authorisedSignatory": "Authorised signatory",
    "documents": "Documents",
    "products": "Products",
    "tncAcknowledged": "Terms and conditions",
    "digiLocker": "DigiLocker",
    "vkyc": "Video KYC",
    "documentsToBeUploaded": "Documents to be uploaded",
}

#: The checklist's words carry their labels in their own table
#: (portal.gateway.onboarding.checklist_words).
_CHECKLIST_STATE = {state: row.label for state, row in CHECKLIST_WORDS.items()}

_PRODUCT = {
    Product.GLOBAL_FUND_TRANSFER: "Global fund transfer",
    Product.INTERNATIONAL_CARDS_AND_ALT_PAYS: "International cards and alternative payments",
    Product.DOMESTIC_CARDS_UPI_AND_INB: "Domestic cards, UPI and net banking",
}

_CARD_NETWORK = {
    CardNetwork.AMERICAN_EXPRESS: "American Express",
    CardNetwork.DINERS: "Diners Club",
    CardNetwork.DISCOVER: "Discover",
    CardNetwork.OTHER_DEBIT_CARDS: "Other debit cards",
    CardNetwork.OTHER_CREDIT_CARDS: "Other credit cards",
}

_FEE_TYPE = {FeeType.FIXED: "Fixed amount", FeeType.PERCENTAGE: "Percentage"}

_ENTITY_TYPE = {
    EntityType.INDIVIDUAL: "Individual",
    EntityType.PVT_LTD_COMPANY: "Private limited company",
    EntityType.PUBLIC_LTD_COMPANY: "Public limited company",
    EntityType.PROPRIETOR: "Sole proprietor",
    EntityType.PARTNERSHIP_FIRM: "Partnership firm",
    EntityType.LLP_FIRM: "Limited liability partnership (LLP)",
}

_ACCOUNT_TYPE = {AccountType.CURRENT: "Current", AccountType.SAVINGS: "Savings"}

_DOCUMENT = {
    "IEC": "Importer-exporter code (IEC)",
    "LOB_DOCUMENT": "Line of business document",
    "MOA_DOCUMENT": "Memorandum of association",
    "AOA_DOCUMENT": "Articles of association",
    "COI_DOCUMENT": "Certificate of incorporation",
    "OPERATING_ADDRESS_PROOF": "Proof of operating address",
    "LLP_AGREEMENT": "LLP agreement",
    "PARTNERSHIP_DEED": "Partnership deed",
    "UDYAM": "Udyam registration certificate",
    "PAN": "PAN card",
    "BUSINESS": "Business proof",
    "ADDRESS": "Address proof",
    "ACCOUNT": "Bank account proof",
    "AUTH_SIGNATORY": "Authorised signatory's ID",
    "BO": "Beneficial owner's ID",
    "DIRECTOR": "Director's ID",
    "MOA": "Memorandum of association",
    "AOA": "Articles of association",
    "COI": "Certificate of incorporation",
    "BR": "Board resolution",
    "LLP": "LLP certificate",
    "CANCELLED_CHEQUE": "Cancelled cheque",
    "REPRESENTATIVE_DOC": "Representative's document",
    "PARTNERSHIP_REGISTRATION_CERTIFICATE": "Partnership registration certificate",
    "UTILITY_BILL": "Utility bill",
    "ITR": "Income tax return",
    "SHOP_ESTABLISHMENT_CERTIFICATE": "Shop and establishment certificate",
    "GST_SUPPORTING_CERTIFICATE": "GST certificate",
    "SERVICE_LEVEL_AGREEMENT": "Service level agreement",
    "BANK_STATEMENT": "Bank statement",
    "PAN_CARD": "PAN card",
    "CERTIFICATE_OF_INCORPORATION": "Certificate of incorporation",
    # Asked for by the review beyond the upload types (rfi-handling's example).
    "GST_CERTIFICATE": "GST registration certificate",
    # Outstanding-document keys that any of several types satisfies (documents.service).
    "SOLE_PROP_DOC_1_UPLOAD": "First business proof of the proprietor",
    "SOLE_PROP_DOC_2_UPLOAD": "Second business proof of the proprietor",
    "FREELANCER_DOC_UPLOAD": "Freelancer's proof of work",
}

_DOCUMENT_STATUS = {
    DocumentStatus.STORED: "Stored, not sent yet",
    DocumentStatus.SENT: "Sent",
    DocumentStatus.NOT_SENT: "Not sent",
    DocumentStatus.REFUSED: "Refused by the gateway",
    DocumentStatus.FROM_MERCHANT: "Received from the merchant, waiting for review",
    DocumentStatus.NOT_TAKEN: "Refused by ops: the merchant is asked again",
}


_REFUND_STATE = {
    RefundState.SENDING: "Being sent",
    RefundState.SENT: "Sent to the gateway",
    RefundState.UNKNOWN: "Outcome unknown: Refresh status settles it",
    RefundState.FAILED: "Not made: nothing was refunded",
}

_PENNY_DROP = {PennyDropStatus.VERIFIED: "Verified", PennyDropStatus.FAILED: "Failed"}

_CREATE_STATE = {
    CreateState.DRAFT: "Not created yet",
    CreateState.CREATED: "Created",
    CreateState.OUTCOME_UNKNOWN: "Outcome unknown",
    CreateState.NEEDS_RECONCILE: "Needs reconciliation",
}

_STEP_STATE = {
    StepState.NOT_STARTED: "Not started",
    StepState.DRAFT: "Draft",
    StepState.SENT: "Sent",
    StepState.NEEDS_ATTENTION: "Needs attention",
    StepState.LOCKED: "Locked",
    StepState.QUEUED: "Queued",
    StepState.NOT_NEEDED: "Not needed for this merchant",
}

_STATUS_SOURCE = {
    StatusSource.POLL: "Status read",
    StatusSource.WEBHOOK: "Gateway webhook",
    StatusSource.VERIFICATION_PAGE: "Verification page",
    StatusSource.STEP_SEND: "Answer to a step",
}

TABLES: dict[Kind, dict[str, str]] = {
    Kind.STATUS: _STATUS,
    Kind.CHECKLIST_ITEM: _CHECKLIST_ITEM,
    Kind.CHECKLIST_STATE: _CHECKLIST_STATE,
    Kind.PRODUCT: _PRODUCT,
    Kind.CARD_NETWORK: _CARD_NETWORK,
    Kind.FEE_TYPE: _FEE_TYPE,
    Kind.ENTITY_TYPE: _ENTITY_TYPE,
    Kind.ACCOUNT_TYPE: _ACCOUNT_TYPE,
    Kind.DOCUMENT: _DOCUMENT,
    Kind.DOCUMENT_STATUS: _DOCUMENT_STATUS,
    Kind.PAYMENT_STATUS: PAYMENT_STATUS_LABELS,
    Kind.REFUND_STATE: _REFUND_STATE,
    Kind.PENNY_DROP: _PENNY_DROP,
    Kind.CREATE_STATE: _CREATE_STATE,
    Kind.STEP_STATE: _STEP_STATE,
    Kind.STATUS_SOURCE: _STATUS_SOURCE,
    Kind.AUDIT_ACTION: AUDIT_ACTIONS,
    Kind.OUTCOME: OUTCOMES,
}
