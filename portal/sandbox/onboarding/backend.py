"""The onboarding API's backend: the partner operations, over the verification steps
(``review``) and the store of keys, records and tokens (``store``).

One lock guards everything, since the sandbox is served threaded. Operations take already
validated shapes and plain arguments, so they are tested without HTTP; the blueprint in
``portal.sandbox.onboarding.routes`` only parses requests and calls them.

Status machine (docs/gateway-contract.md, "Partner onboarding"): INITIATED -> IN_PROGRESS (first
section or document saved) -> PENDING_VERIFICATION (every section in, nothing outstanding; a later
change that leaves something outstanding moves it back) -> PENDING_REVIEW
(:meth:`complete_verification`) -> APPROVED, REJECTED or RFI (:meth:`finish_review`, decided by
``registeredName``, else ``tradeName``); RFI -> PENDING_REVIEW once the requested documents arrive.
The review asks for information once; the next one decides for good.

Time-driven work waits for :meth:`tick`: each move to PENDING_REVIEW schedules the review
``reviewSeconds`` later on the sandbox clock, and every verification step and review outcome
queues a webhook (``portal.sandbox.webhooks``). The served sandbox ticks in a background thread;
tests tick after moving the clock.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from urllib.parse import urlencode

from portal.gateway.onboarding.requests import (
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
    VerificationRedirectRequest,
)
from portal.gateway.onboarding.vocabulary import OnboardingStatus, known_document_type
from portal.gateway.onboarding.webhooks import WebhookList, WebhookRegistrationRequest
from portal.gateway.shapes import FieldError
from portal.sandbox.common.errors import ApiError, validation_error
from portal.sandbox.onboarding.categories import SUBCATEGORY_CODES
from portal.sandbox.onboarding.documents import pending_documents
from portal.sandbox.onboarding.records import OnboardingRecord, StoredDocument, VerificationToken
from portal.sandbox.onboarding.review import VerificationSteps
from portal.sandbox.onboarding.rules import callback_url_errors, pan_errors, penny_drop

TOKEN_LIFETIME = timedelta(hours=24)


def _locked(section: str, event: str) -> ApiError:
    return validation_error([FieldError(section, f"{section} cannot be changed after {event}")])


def _guard(record: OnboardingRecord, section: str, locked: bool, event: str) -> None:
    """Refuse a locked section, unless the support reset the record for one change of it."""
    if locked and section not in record.reset_sections:
        raise _locked(section, event)


_AFTER_TNC = "the T&C acknowledgement"
_AFTER_VERIFICATION = "verification is complete"


class OnboardingBackend(VerificationSteps):
    """Resettable, thread-safe state of the partner onboarding API."""

    # ------------------------------------------------------------ partner webhooks

    def register_webhook(self, partner_id: str, request: WebhookRegistrationRequest) -> dict:
        """Send the partner's events to ``webhookUrl`` too (HTTPS, or HTTP to loopback)."""
        errors = callback_url_errors(request.webhookUrl, "webhookUrl")
        if errors:
            raise validation_error(errors)
        return self.webhooks.register(partner_id, str(request.webhookUrl)).model_dump()

    def list_webhooks(self, partner_id: str) -> dict:
        """The partner's registered webhooks."""
        return WebhookList(webhooks=self.webhooks.registered(partner_id)).model_dump()

    def delete_webhook(self, partner_id: str, webhook_id: str) -> dict:
        """Stop sending events to one of the partner's webhooks; 404 if unknown."""
        return self.webhooks.unregister(partner_id, webhook_id).model_dump()

    # ------------------------------------------------------------ partner operations

    def create_onboarding(self, partner_id: str, request: CreateOnboardingRequest) -> dict:
        """Create a record; externalOnboardingId is never reusable, one live record per PAN."""
        with self._lock:
            mine = [r for r in self._records.values() if r.partner_id == partner_id]
            errors = []
            if any(r.external_id == request.externalOnboardingId for r in mine):
                errors.append(FieldError("externalOnboardingId",
                                         "This externalOnboardingId was used before"))
            live_pans = {r.pan for r in mine if r.status is not OnboardingStatus.REJECTED}
            if request.panNumber in live_pans:
                errors.append(FieldError("panNumber", "A merchant with this PAN is onboarded"))
            else:
                errors += pan_errors("panNumber", request.panNumber)
            if errors:
                raise validation_error(errors)
            record = OnboardingRecord(
                onboarding_id="pg_onboard_" + secrets.token_hex(12),
                partner_id=partner_id,
                external_id=request.externalOnboardingId,
                pan=request.panNumber,
                created_at=self._clock.now(),
            )
            self._records[record.onboarding_id] = record
            return self._data(record)

    def update_business_details(self, partner_id: str, onboarding_id: str,
                                request: BusinessDetailsRequest) -> dict:
        """Save business details; refused after the T&C acknowledgement."""

        def apply(record: OnboardingRecord) -> None:
            _guard(record, "businessDetails", record.tnc_acknowledged, _AFTER_TNC)
            if request.natureOfBusiness not in SUBCATEGORY_CODES:
                raise validation_error([FieldError(
                    "natureOfBusiness", "Not a subcategory code of the business-category lookup")])
            record.business = request
            record.reset_sections.discard("businessDetails")

        return self._update(partner_id, onboarding_id, apply)

    def add_beneficial_owners(self, partner_id: str, onboarding_id: str,
                              request: BeneficialOwnersRequest) -> dict:
        """Replace the owners; refused once verification is complete."""

        def apply(record: OnboardingRecord) -> None:
            if record.verification_complete:
                raise _locked("beneficialOwners", _AFTER_VERIFICATION)
            errors = [error for index, owner in enumerate(request.root)
                      for error in pan_errors(f"[{index}].pan", owner.pan)]
            if errors:
                raise validation_error(errors)
            record.owners = list(request.root)

        return self._update(partner_id, onboarding_id, apply)

    def update_bank_details(self, partner_id: str, onboarding_id: str,
                            request: BankDetailsRequest) -> dict:
        """Save bank details and run the penny drop; refused once verification is complete."""

        def apply(record: OnboardingRecord) -> None:
            _guard(record, "bankDetails", record.verification_complete, _AFTER_VERIFICATION)
            record.bank = request
            name = record.business.business_name if record.business else ""
            record.penny_drop, record.name_at_bank = penny_drop(request, name)
            record.reset_sections.discard("bankDetails")

        return self._update(partner_id, onboarding_id, apply)

    def update_auth_signatory(self, partner_id: str, onboarding_id: str,
                              request: AuthSignatoryRequest) -> dict:
        """Save the authorised signatory; refused after the T&C acknowledgement."""

        def apply(record: OnboardingRecord) -> None:
            _guard(record, "authorisedSignatory", record.tnc_acknowledged, _AFTER_TNC)
            errors = pan_errors("authSignatoryPan", request.authSignatoryPan)
            if errors:
                raise validation_error(errors)
            record.signatory = request
            record.reset_sections.discard("authorisedSignatory")

        return self._update(partner_id, onboarding_id, apply)

    def upload_document(self, partner_id: str, onboarding_id: str,
                        request: DocumentUploadRequest) -> dict:
        """Store one document of a known type or one asked for; after verification only
        documents the review asked for."""

        def apply(record: OnboardingRecord) -> None:
            doc_type = request.merchantDocType
            if not known_document_type(doc_type) and doc_type not in pending_documents(record):
                raise validation_error([FieldError("merchantDocType", "Unknown document type")])
            if record.verification_complete and doc_type not in record.requested_documents:
                raise _locked("documents", _AFTER_VERIFICATION)
            record.documents.append(StoredDocument(doc_type, request.fileName, self._clock.now()))
            if doc_type in record.requested_documents:
                record.requested_documents.remove(doc_type)
                if not record.requested_documents and record.status is OnboardingStatus.RFI:
                    record.status = OnboardingStatus.PENDING_REVIEW
                    self._schedule_review(record)

        return self._update(partner_id, onboarding_id, apply)

    def configure_products(self, partner_id: str, onboarding_id: str,
                           request: ConfigureProductsRequest) -> dict:
        """Save the products and their fees."""

        def apply(record: OnboardingRecord) -> None:
            record.products = request
            record.reset_sections.discard("products")

        return self._update(partner_id, onboarding_id, apply)

    def get_verification_redirect(self, partner_id: str, onboarding_id: str,
                                  request: VerificationRedirectRequest, base_url: str) -> dict:
        """Issue a single-use, 24-hour verification link once every step is complete."""
        with self._lock:
            record = self._owned(partner_id, onboarding_id)
            if record.verification_complete:
                raise validation_error([FieldError("onboardingStatus",
                                                   "Verification is already complete")])
            errors = callback_url_errors(request.callBackUrl) + self.missing_items(record)
            if errors:
                raise validation_error(errors)
            token = VerificationToken(
                token=secrets.token_urlsafe(32),
                onboarding_id=onboarding_id,
                callback_url=str(request.callBackUrl),
                expires_at=self._clock.now() + TOKEN_LIFETIME,
            )
            self._tokens[token.token] = token
            query = urlencode({"token": token.token, "onboardingId": onboarding_id})
            return {"redirectLink": f"{base_url}verification?{query}",
                    "onboardingId": onboarding_id}

    def get_status(self, partner_id: str, onboarding_id: str) -> dict:
        """The record and its checklist."""
        with self._lock:
            return self._data(self._owned(partner_id, onboarding_id))
