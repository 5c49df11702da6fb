"""The words for every code the portal stores or the gateway sends, one table per kind.

``portal.labels`` looks codes up here; ``tests/test_labels.py`` checks every enum member has an
entry. A code without one is shown as it is.
"""

from __future__ import annotations

from enum import StrEnum

from portal.gateway.onboarding_shapes import (
    AccountType,
    CardNetwork,
    ChecklistState,
    EntityType,
    FeeType,
    OnboardingStatus,
    PennyDropStatus,
    Product,
)
from portal.gateway.payments_shapes import PaymentStatus
from portal.models.document import DocumentStatus
from portal.models.merchant import CreateState
from portal.models.payment import PENDING
from portal.models.status_change import StatusSource
from portal.models.step import StepState

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
    PENNY_DROP = "penny_drop"
    CREATE_STATE = "create_state"
    STEP_STATE = "step_state"
    STATUS_SOURCE = "status_source"
    AUDIT_ACTION = "audit_action"
    OUTCOME = "outcome"


_STATUS = {
    NOT_CREATED: "Not created yet",
    OnboardingStatus.INITIATED: "Created",
    OnboardingStatus.IN_PROGRESS: "Details being sent",
    OnboardingStatus.PENDING_VERIFICATION: "Pending verification",
    OnboardingStatus.PENDING_REVIEW: "Pending review",
    OnboardingStatus.RFI: "More information requested",
    OnboardingStatus.APPROVED: "Approved",
    OnboardingStatus.REJECTED: "Rejected",
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

_CHECKLIST_STATE = {
    ChecklistState.PENDING: "Pending",
    ChecklistState.COMPLETE: "Complete",
    ChecklistState.FAILED: "Failed",
    ChecklistState.PENDING_REVIEW: "Done, under review by the gateway",
}

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
}

_PAYMENT_STATUS = {
    PENDING: "Waiting for the gateway's answer",
    PaymentStatus.CREATED: "Created",
    PaymentStatus.INPROGRESS: "In progress",
    PaymentStatus.AUTHORIZED: "Authorised (held)",
    PaymentStatus.SENT_FOR_CAPTURE: "Captured",
    PaymentStatus.SENT_FOR_REFUND: "Refunded (in part or in full)",
    PaymentStatus.REVERSED: "Released",
    PaymentStatus.ISSUER_DECLINE: "Declined by the card issuer",
    PaymentStatus.AUTHENTICATION_FAILED: "Authentication failed",
    PaymentStatus.CUSTOMER_CANCELLED: "Cancelled by the customer",
    PaymentStatus.ABANDONED: "Abandoned",
    PaymentStatus.EXPIRED: "Expired",
    PaymentStatus.SYSTEM_ERROR: "Gateway system error",
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
}

_STATUS_SOURCE = {
    StatusSource.POLL: "Status read",
    StatusSource.WEBHOOK: "Gateway webhook",
    StatusSource.VERIFICATION_PAGE: "Verification page",
    StatusSource.STEP_SEND: "Answer to a step",
}

#: What each audited action did, as the verb of a sentence "<actor> <verb> for <merchant>".
_AUDIT_ACTION = {
    "step.send.create": "created {merchant} at the gateway",
    "step.send.business": "sent business details",
    "step.send.owners": "sent beneficial owners",
    "step.send.bank": "sent bank details",
    "step.send.signatory": "sent the authorised signatory",
    "step.send.documents": "sent a document",
    "step.send.products": "configured products",
    "step.draft": "saved a draft of {step}",
    "document.store": "uploaded a document",
    "document.refused": "had a document refused",
    "document.download": "downloaded a document",
    "document.file_deleted": "deleted a document's file (retention)",
    "merchant.start": "started onboarding",
    "merchant.reconcile": "reconciled the gateway record",
    "merchant.gateway_mid": "kept the MID the gateway gave on approval",
    "merchant.pendency": "kept a pendency the gateway reported",
    "merchant.delete": "deleted {merchant}",
    "merchant.export": "exported {merchant} as a ZIP",
    "status.change": "moved {merchant} to “{to}”",
    "status.read": "read the status",
    "verification.link": "issued a verification link",
    "verification.reminder": "sent a verification reminder",
    "merchant_link.issue": "issued a merchant link",
    "merchant_link.email": "emailed a merchant link",
    "merchant_link.open": "opened their verification link",
    "merchant_link.revoke": "revoked a merchant link",
    "mail_template.update": "edited a mail template",
    "mail_template.restore": "restored a mail template",
    "bulk.import": "imported merchants in bulk",
    "bulk.import.start": "started a bulk import",
    "bulk.import.end": "finished a bulk import",
    "bulk.import.cancel": "cancelled a bulk import",
    "bulk.import.linked": "noted bulk rows of unknown outcome as linked",
    "payment.initiate": "started a payment",
    "payment.refresh": "refreshed a payment's status",
    "payment.capture": "captured a payment",
    "payment.reverse": "released a payment hold",
    "payment.refund": "refunded a payment",
    "payment.discard": "discarded a hold that never reached the gateway",
    "payments.credentials": "set payment credentials",
    "payments.portfolio_key": "set the portfolio signing key",
    "approval.requested": "asked a second admin to approve a change",
    "approval.approve": "tried to approve a change",
    "approval.approved": "approved a change another admin asked for",
    "approval.carried_out": "carried out an approved change",
    "approval.rejected": "rejected a change another admin asked for",
    "approval.expired": "marked a change expired (24 hours without a second admin)",
    "user.create": "added {email}",
    "user.activate": "reactivated {email}",
    "user.deactivate": "deactivated {email}",
    "user.reinvite": "invited {email} again",
    "user.invitation_accept": "accepted an invitation",
    "user.login": "signed in",
    "user.logout": "signed out",
    "user.mfa_enrol": "enrolled an authenticator",
    "user.mfa_reset": "reset the two-step sign-in of {email}",
    "user.password_change": "changed a password",
    "user.role_change": "changed the role of {email}",
    "user.invitation": "emailed an invitation to choose a password",
}
# Pairs, not dict entries: bandit takes a "password" key with a string value for a secret.
_AUDIT_ACTION.update([
    ("user.one_time_password", "issued a one-time password to {email}"),
    ("password_reset.request", "asked for a password reset"),
    ("password_reset.complete", "reset a password"),
])

_OUTCOME = {
    "ok": "done",
    "failed": "failed",
    "refused": "refused",
    "invalid": "invalid",
    "unavailable": "gateway unavailable",
    "unknown": "outcome unknown",
    "error": "gateway error",
    "stale": "ignored (older than what is known)",
    "unknown status": "status not known",
    "unreadable": "sent, answer unreadable",
    "throttled": "refused (asked too often)",
    "interrupted": "interrupted while sending (not sent again)",
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
    Kind.PAYMENT_STATUS: _PAYMENT_STATUS,
    Kind.PENNY_DROP: _PENNY_DROP,
    Kind.CREATE_STATE: _CREATE_STATE,
    Kind.STEP_STATE: _STEP_STATE,
    Kind.STATUS_SOURCE: _STATUS_SOURCE,
    Kind.AUDIT_ACTION: _AUDIT_ACTION,
    Kind.OUTCOME: _OUTCOME,
}
