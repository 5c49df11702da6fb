"""What the onboarding backend stores: records, uploaded documents and verification tokens."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.requests import (
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwner,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
)
from portal.gateway.onboarding.vocabulary import EntityType, OnboardingStatus, PennyDropStatus

#: The checklist key of the section an individual does not have.
BENEFICIAL_OWNERS = "beneficialOwners"


@dataclass(frozen=True)
class StoredDocument:
    """An uploaded document (the content itself is not kept)."""

    doc_type: str
    file_name: str
    uploaded_at: datetime


@dataclass
class OnboardingRecord:
    """One merchant's onboarding record and everything submitted for it."""

    onboarding_id: str
    partner_id: str
    external_id: str
    pan: str
    created_at: datetime
    status: OnboardingStatus = OnboardingStatus.INITIATED
    business: BusinessDetailsRequest | None = None
    owners: list[BeneficialOwner] | None = None
    bank: BankDetailsRequest | None = None
    penny_drop: PennyDropStatus | None = None
    name_at_bank: str | None = None
    signatory: AuthSignatoryRequest | None = None
    products: ConfigureProductsRequest | None = None
    documents: list[StoredDocument] = field(default_factory=list)
    tnc_acknowledged: bool = False
    #: Locked sections the merchant support reset the record for: each takes one more change.
    reset_sections: set[str] = field(default_factory=set)
    digilocker: ChecklistState = ChecklistState.PENDING
    vkyc: ChecklistState = ChecklistState.PENDING
    #: Documents the review asked for (RFI) and not yet received.
    requested_documents: list[str] = field(default_factory=list)
    #: Whether the review already asked for information once; the next review decides.
    rfi_raised: bool = False
    #: What the last review found the website lacks, in words (its RFI names them).
    website_gaps: list[str] = field(default_factory=list)
    #: The ids the approval gave the merchant (its acceptance events' ``merchant_id`` and the
    #: virtual account's ``ucic_id``): the same in every event.
    merchant_id: str | None = None
    ucic_id: str | None = None

    @property
    def verification_complete(self) -> bool:
        """Whether the merchant finished the verification page (T&C, DigiLocker and VKYC)."""
        return self.vkyc is ChecklistState.COMPLETE and self.digilocker is ChecklistState.COMPLETE

    def inapplicable(self) -> frozenset[str]:
        """The sections that do not apply to the entity: an individual has no beneficial
        owners (docs/gateway-facts.md A4, "By entity type"; the contract's choice of section)."""
        individual = self.business is not None and \
            self.business.entityType is EntityType.INDIVIDUAL
        return frozenset({BENEFICIAL_OWNERS}) if individual else frozenset()

    def sections(self) -> dict[str, bool]:
        """Each detail section's checklist key and whether it is done: submitted, or not
        applicable to the entity."""
        submitted = {
            "businessDetails": self.business is not None,
            BENEFICIAL_OWNERS: self.owners is not None,
            "bankDetails": self.bank is not None,
            "authorisedSignatory": self.signatory is not None,
            "products": self.products is not None,
        }
        inapplicable = self.inapplicable()
        return {key: done or key in inapplicable for key, done in submitted.items()}

    def uploaded_types(self) -> set[str]:
        """The document types received so far."""
        return {d.doc_type for d in self.documents}


@dataclass
class VerificationToken:
    """A verification-page session: single use, valid until ``expires_at``."""

    token: str
    onboarding_id: str
    callback_url: str
    expires_at: datetime
    used: bool = False

    def usable(self, now: datetime) -> bool:
        """Whether the token may still open the verification page."""
        return not self.used and now < self.expires_at


@dataclass(frozen=True)
class ReceivedRequest:
    """One request as it arrived, for tests that prove the exact bytes received."""

    method: str
    raw_path: str
    #: The body; a document upload's only when it is small (it is read in chunks).
    body: bytes
    header_names: tuple[str, ...]
    #: The body's size and SHA-256 as received (a document upload's too).
    size: int = 0
    sha256: str = ""
    #: The ``x-gl-digest`` the request carried.
    digest: str = ""
