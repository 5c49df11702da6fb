"""The onboarding API's state: partners' keys, records, status machine, locks and tokens.

One lock guards everything, since the sandbox is served threaded. Operations take already
validated shapes and plain arguments, so they are tested without HTTP; the blueprint in
``portal.sandbox.onboarding.routes`` only parses requests and calls them.

Status machine (CONTRACT.md): INITIATED -> IN_PROGRESS (first section or document saved) ->
PENDING_VERIFICATION (every section in, nothing outstanding; a later change that leaves something
outstanding moves it back) -> PENDING_REVIEW (:meth:`complete_verification`) -> APPROVED,
REJECTED or RFI (:meth:`finish_review`, decided by ``registeredName``, else ``tradeName``);
RFI -> PENDING_REVIEW once the requested documents arrive. The review asks for information
once; the next one decides for good.

Time-driven work waits for :meth:`tick`: each move to PENDING_REVIEW schedules the review
``reviewSeconds`` later on the sandbox clock, and every verification step and review outcome
queues a webhook (``portal.sandbox.webhooks``). The served sandbox ticks in a background thread;
tests tick after moving the clock.
"""

from __future__ import annotations

import secrets
import threading
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from urllib.parse import urlencode

from pydantic import HttpUrl

from portal.clock import Clock
from portal.gateway.onboarding_events import WebhookEventName
from portal.gateway.onboarding_shapes import (
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    Checklist,
    ChecklistState,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
    OnboardingStatus,
    PennyDropStatus,
    VerificationRedirectRequest,
    WebhookList,
    WebhookRegistrationRequest,
)
from portal.gateway.shapes import FieldError
from portal.sandbox.config import SandboxConfig
from portal.sandbox.errors import ApiError, forbidden, not_found, validation_error
from portal.sandbox.hmac_auth import PartnerKeyState
from portal.sandbox.onboarding.categories import SUBCATEGORY_CODES
from portal.sandbox.onboarding.present import checklist, merchant_data
from portal.sandbox.onboarding.records import (
    OnboardingRecord,
    ReceivedRequest,
    StoredDocument,
    VerificationToken,
)
from portal.sandbox.onboarding.status_names import status_name, with_status_names
from portal.sandbox.webhooks.dispatcher import WebhookDispatcher
from portal.sandbox.webhooks.events import STEP_KEYS, payload, review_event

#: Bank account and IFSC that pass the sandbox's penny drop (CONTRACT.md test values).
PENNY_DROP_ACCOUNT = "1234567890"
PENNY_DROP_IFSC = "SBIN0000000"
#: The four digits of a PAN the sandbox treats as not existing.
MISSING_PAN_DIGITS = "9999"
#: The name the sandbox's bank holds when neither the holder's nor the business's name is known.
SANDBOX_HOLDER = "Sandbox account holder"
#: What the review asks for when it ends in RFI.
RFI_DOCUMENT = "BANK_STATEMENT"
TOKEN_LIFETIME = timedelta(hours=24)
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: Statuses in which the record's status follows from what has been submitted.
_OPEN_STATUSES = frozenset(
    {OnboardingStatus.INITIATED, OnboardingStatus.IN_PROGRESS,
     OnboardingStatus.PENDING_VERIFICATION}
)


def pan_errors(field: str, pan: str) -> list[FieldError]:
    """The sandbox's PAN registry look-up: four digits 9999 means the PAN does not exist."""
    if pan[5:9] == MISSING_PAN_DIGITS:
        return [FieldError(field, "PAN does not exist")]
    return []


def penny_drop(bank: BankDetailsRequest,
               business_name: str = "") -> tuple[PennyDropStatus, str | None]:
    """The penny drop's outcome and the name the bank returns (None when it failed).

    The bank knows the holder's name whether or not the partner typed it: the sandbox's bank
    returns the name typed, else the business's name, else a stand-in.
    """
    if bank.bankAccountNumber == PENNY_DROP_ACCOUNT and bank.bankIfscCode == PENNY_DROP_IFSC:
        return PennyDropStatus.VERIFIED, (bank.accountHolderName or business_name
                                          or SANDBOX_HOLDER).upper()
    return PennyDropStatus.FAILED, None


def callback_url_errors(url: HttpUrl, field: str = "callBackUrl") -> list[FieldError]:
    """A URL the gateway calls must be HTTPS; plain HTTP only to a loopback host, since this is
    a sandbox."""
    if url.scheme == "https" or (url.scheme == "http" and url.host in LOOPBACK_HOSTS):
        return []
    return [FieldError(field, "Use an https URL (http only for a loopback host)")]


def _locked(section: str, event: str) -> ApiError:
    return validation_error([FieldError(section, f"{section} cannot be changed after {event}")])


_AFTER_TNC = "the T&C acknowledgement"
_AFTER_VERIFICATION = "verification is complete"


class OnboardingBackend:
    """Resettable, thread-safe state of the partner onboarding API."""

    def __init__(self, config: SandboxConfig, clock: Clock, log_size: int = 200) -> None:
        self._config = config
        self._clock = clock
        self._lock = threading.RLock()
        self._keys: dict[str, PartnerKeyState] = {}
        self._records: dict[str, OnboardingRecord] = {}
        self._tokens: dict[str, VerificationToken] = {}
        self._requests: deque[ReceivedRequest] = deque(maxlen=log_size)
        self._reviews_due: dict[str, datetime] = {}
        #: The webhook outbox; its log and faults are the tests' view of deliveries.
        self.webhooks = WebhookDispatcher(config, clock)
        self.reset()

    def reset(self) -> None:
        """Forget every record, token and logged request; keys return to the config's state."""
        with self._lock:
            self._keys = {
                key.apiKey: PartnerKeyState(partner.partnerId, key.apiSecret, key.active)
                for partner in self._config.partners
                for key in partner.keys
            }
            self._records.clear()
            self._tokens.clear()
            self._requests.clear()
            self._reviews_due.clear()
            self.webhooks.reset()

    # ------------------------------------------------------------ keys and request log

    def active_key(self, api_key: str) -> PartnerKeyState | None:
        """The key's partner and secret if the key is known and active."""
        with self._lock:
            key = self._keys.get(api_key)
            return key if key is not None and key.active else None

    def set_key_active(self, api_key: str, active: bool) -> None:
        """Activate or deactivate a key; the next request sees the change."""
        with self._lock:
            self._keys[api_key].active = active

    def log_request(self, entry: ReceivedRequest) -> None:
        """Remember a request as received (bounded: the oldest are dropped)."""
        with self._lock:
            self._requests.append(entry)

    def received_requests(self) -> list[ReceivedRequest]:
        """The logged requests, oldest first."""
        with self._lock:
            return list(self._requests)

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
            if record.tnc_acknowledged:
                raise _locked("businessDetails", _AFTER_TNC)
            if request.natureOfBusiness not in SUBCATEGORY_CODES:
                raise validation_error([FieldError(
                    "natureOfBusiness", "Not a subcategory code of the business-category lookup")])
            record.business = request

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
            if record.verification_complete:
                raise _locked("bankDetails", _AFTER_VERIFICATION)
            record.bank = request
            name = record.business.business_name if record.business else ""
            record.penny_drop, record.name_at_bank = penny_drop(request, name)

        return self._update(partner_id, onboarding_id, apply)

    def update_auth_signatory(self, partner_id: str, onboarding_id: str,
                              request: AuthSignatoryRequest) -> dict:
        """Save the authorised signatory; refused after the T&C acknowledgement."""

        def apply(record: OnboardingRecord) -> None:
            if record.tnc_acknowledged:
                raise _locked("authorisedSignatory", _AFTER_TNC)
            errors = pan_errors("authSignatoryPan", request.authSignatoryPan)
            if errors:
                raise validation_error(errors)
            record.signatory = request

        return self._update(partner_id, onboarding_id, apply)

    def upload_document(self, partner_id: str, onboarding_id: str,
                        request: DocumentUploadRequest) -> dict:
        """Store one document; after verification only documents the review asked for."""

        def apply(record: OnboardingRecord) -> None:
            doc_type = request.merchantDocType
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

    @staticmethod
    def missing_items(record: OnboardingRecord) -> list[FieldError]:
        """One entry per section not submitted and per document outstanding."""
        missing = [FieldError(key, "This step is not complete")
                   for key, done in record.sections().items() if not done]
        missing += [FieldError(f"documentsToBeUploaded.{doc}", "This document is outstanding")
                    for doc in checklist(record).documentsToBeUploaded]
        return missing

    # ------------------------------------------------------------ the verification page's hooks

    def lookup_token(self, token: str) -> VerificationToken | None:
        """A verification token that is still usable, or None."""
        with self._lock:
            found = self._tokens.get(token)
            return found if found is not None and found.usable(self._clock.now()) else None

    def consume_token(self, token: str) -> VerificationToken | None:
        """Use a token up; None if it is unknown, used or expired."""
        with self._lock:
            found = self.lookup_token(token)
            if found is not None:
                found.used = True
            return found

    def find_token(self, token: str) -> VerificationToken | None:
        """A verification token whatever its state (used, expired), or None if never issued."""
        with self._lock:
            return self._tokens.get(token)

    def business_name(self, onboarding_id: str) -> str:
        """The record's registeredName, else its tradeName ('' before business details)."""
        with self._lock:
            business = self._get(onboarding_id).business
            return business.business_name if business else ""

    def verification_checklist(self, onboarding_id: str) -> Checklist:
        """The record's checklist, for the verification page (which knows no partner)."""
        with self._lock:
            return checklist(self._get(onboarding_id))

    def acknowledge_tnc(self, onboarding_id: str) -> None:
        """The merchant accepted the T&C: business details and signatory are locked from now."""
        with self._lock:
            self._acknowledge(self._expecting(onboarding_id,
                                              OnboardingStatus.PENDING_VERIFICATION))

    def complete_digilocker(self, onboarding_id: str) -> None:
        """The merchant gave DigiLocker consent (after the T&C)."""
        with self._lock:
            record = self._expecting(onboarding_id, OnboardingStatus.PENDING_VERIFICATION)
            if not record.tnc_acknowledged:
                raise validation_error([FieldError("tncAcknowledged", "Acknowledge the T&C first")])
            self._digilocker_done(record)

    def fail_vkyc(self, onboarding_id: str) -> None:
        """Video KYC failed: vkyc FAILED, the status stays and the merchant may try again."""
        with self._lock:
            record = self._expecting(onboarding_id, OnboardingStatus.PENDING_VERIFICATION)
            if record.digilocker is not ChecklistState.COMPLETE:
                raise validation_error([FieldError("digiLocker", "Complete DigiLocker first")])
            record.vkyc = ChecklistState.FAILED

    def complete_verification(self, onboarding_id: str) -> None:
        """VKYC passed: PENDING_REVIEW, owners, bank and documents lock, the review is scheduled."""
        with self._lock:
            record = self._expecting(onboarding_id, OnboardingStatus.PENDING_VERIFICATION)
            # steps not done yet are marked done too, so tests can take this as a shortcut
            self._acknowledge(record)
            self._digilocker_done(record)
            record.vkyc = ChecklistState.COMPLETE
            record.status = OnboardingStatus.PENDING_REVIEW
            self._emit_step(record, WebhookEventName.VKYC_COMPLETED)
            self._schedule_review(record)

    def finish_review(self, onboarding_id: str) -> OnboardingStatus:
        """Decide by registeredName (else tradeName): REJECT -> REJECTED, RFI -> RFI (once),
        else APPROVED."""
        with self._lock:
            record = self._expecting(onboarding_id, OnboardingStatus.PENDING_REVIEW)
            self._reviews_due.pop(onboarding_id, None)
            name = (record.business.business_name if record.business else "").upper()
            if "REJECT" in name:
                record.status = OnboardingStatus.REJECTED
            elif "RFI" in name and not record.rfi_raised:
                record.status = OnboardingStatus.RFI
                record.rfi_raised = True
                record.requested_documents.append(RFI_DOCUMENT)
            else:
                record.status = OnboardingStatus.APPROVED
            self._emit(record, *review_event(record.status, record.requested_documents,
                                             self._clock.now_ms()))
            return record.status

    def tick(self) -> None:
        """Do what is due on the sandbox clock: reviews first, then webhook deliveries."""
        with self._lock:
            now = self._clock.now()
            due = sorted((at, oid) for oid, at in self._reviews_due.items() if at <= now)
            for _at, onboarding_id in due:
                self.finish_review(onboarding_id)
        self.webhooks.tick()  # outside the lock: a receiver may call the API back

    # ------------------------------------------------------------ internals

    def _update(self, partner_id: str, onboarding_id: str,
                apply: Callable[[OnboardingRecord], None]) -> dict:
        with self._lock:
            record = self._owned(partner_id, onboarding_id)
            apply(record)
            self._refresh_status(record)
            return self._data(record)

    def _data(self, record: OnboardingRecord) -> dict:
        return with_status_names(merchant_data(record), self._config)

    def _acknowledge(self, record: OnboardingRecord) -> None:
        if not record.tnc_acknowledged:
            record.tnc_acknowledged = True
            self._emit_step(record, WebhookEventName.TNC_ACKNOWLEDGED)

    def _digilocker_done(self, record: OnboardingRecord) -> None:
        if record.digilocker is not ChecklistState.COMPLETE:
            record.digilocker = ChecklistState.COMPLETE
            self._emit_step(record, WebhookEventName.DIGILOCKER_COMPLETED)

    def _schedule_review(self, record: OnboardingRecord) -> None:
        due = self._clock.now() + timedelta(seconds=self._config.reviewSeconds)
        self._reviews_due[record.onboarding_id] = due

    def _emit(self, record: OnboardingRecord, event: WebhookEventName,
              extra: dict[str, str]) -> None:
        secret = next((key.secret for key in self._keys.values()
                       if key.partner_id == record.partner_id and key.active), None)
        self.webhooks.emit(payload(event, record.onboarding_id,
                                   status_name(record.status, self._config),
                                   self._clock.now_ms(), extra), secret, record.partner_id)

    def _emit_step(self, record: OnboardingRecord, event: WebhookEventName) -> None:
        self._emit(record, event, STEP_KEYS[event])

    def _refresh_status(self, record: OnboardingRecord) -> None:
        if record.status not in _OPEN_STATUSES:
            return
        if not self.missing_items(record):
            record.status = OnboardingStatus.PENDING_VERIFICATION
        else:
            record.status = OnboardingStatus.IN_PROGRESS

    def _get(self, onboarding_id: str) -> OnboardingRecord:
        record = self._records.get(onboarding_id)
        if record is None:
            raise not_found("No onboarding record with this onboardingId")
        return record

    def _owned(self, partner_id: str, onboarding_id: str) -> OnboardingRecord:
        record = self._get(onboarding_id)
        if record.partner_id != partner_id:
            raise forbidden()
        return record

    def _expecting(self, onboarding_id: str, status: OnboardingStatus) -> OnboardingRecord:
        record = self._get(onboarding_id)
        if record.status is not status:
            raise validation_error([FieldError(
                "onboardingStatus", f"The record is {record.status}, not {status}")])
        return record
