"""What the verification page and the compliance review do to a record, and the work the
sandbox clock makes due (reviews, then webhook deliveries)."""

from __future__ import annotations

from portal.gateway.onboarding.answers import Checklist
from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.events import WebhookEventName
from portal.gateway.onboarding.product_events import COVERING, ApprovalProduct
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.gateway.shapes import FieldError
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.errors import validation_error
from portal.sandbox.onboarding.compliance import review_gaps
from portal.sandbox.onboarding.present import checklist
from portal.sandbox.onboarding.records import OnboardingRecord, VerificationToken
from portal.sandbox.onboarding.store import OnboardingStore
from portal.sandbox.webhooks.events import (
    accepted_keys,
    cards_blocked_keys,
    new_merchant_id,
    new_ucic_id,
    provisioned_keys,
    review_event,
)

#: What the review asks for when it ends in RFI; with GST in the name, a type outside the
#: spec's list (rfi-handling's example).
RFI_DOCUMENT = "BANK_STATEMENT"
#: The locked sections the merchant support can reset the record for.
RESETTABLE = frozenset({"bankDetails", "authorisedSignatory", "businessDetails", "products"})
#: A business name holding this is approved with its cards held up by a pendency.
CARDS_BLOCKED = "CARDSBLOCKED"
RFI_GST_DOCUMENT = "GST_CERTIFICATE"


class VerificationSteps(OnboardingStore):
    """The verification page's hooks (tokens, T&C, DigiLocker, video KYC), the review and the
    tick, over the onboarding store."""

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

    def reset_section(self, onboarding_id: str, section: str) -> None:
        """What the merchant support does on a change request: let ``section`` (bankDetails,
        authorisedSignatory, businessDetails, products) of a locked record take one more
        change (the sandbox never locks products: that one is only recorded)."""
        if section not in RESETTABLE:
            raise validation_error([FieldError("section", f"One of {sorted(RESETTABLE)}")])
        with self._lock:
            self._get(onboarding_id).reset_sections.add(section)

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
        """Decide by registeredName (else tradeName): REJECT -> REJECTED, RFI -> RFI (once,
        asking for a GST certificate when the name holds GST too); what the requirements page
        says the review asks for (``compliance.review_gaps``: a regulated sector's certificate,
        a card merchant's website pages) -> RFI; else APPROVED."""
        with self._lock:
            record = self._expecting(onboarding_id, OnboardingStatus.PENDING_REVIEW)
            self._reviews_due.pop(onboarding_id, None)
            name = (record.business.business_name if record.business else "").upper()
            documents, record.website_gaps = review_gaps(record, self._config.reviewWebsites)
            if "REJECT" in name:
                record.status = OnboardingStatus.REJECTED
            elif documents or record.website_gaps:
                record.status = OnboardingStatus.RFI
                record.rfi_raised = True
                record.requested_documents.extend(d for d in documents
                                                  if d not in record.requested_documents)
            elif "RFI" in name and not record.rfi_raised:
                record.status = OnboardingStatus.RFI
                record.rfi_raised = True
                record.requested_documents.append(RFI_GST_DOCUMENT if "GST" in name
                                                  else RFI_DOCUMENT)
            else:
                record.status = OnboardingStatus.APPROVED
            if record.status is OnboardingStatus.APPROVED:
                self._announce_approval(record, CARDS_BLOCKED in name)
            else:
                self._emit(record, *review_event(record.status, record.requested_documents,
                                                 self._clock.now_ms(), record.website_gaps))
            return record.status

    def _announce_approval(self, record: OnboardingRecord, cards_blocked: bool) -> None:
        """The approval's webhooks: the overall one, and in the docs dialect one per product
        asked for besides (MCA now with its virtual account, then cards ``cardsAcceptedSeconds``
        later, or at once without MCA); a ``CARDSBLOCKED`` merchant's cards wait on a pendency
        instead."""
        record.merchant_id = record.merchant_id or new_merchant_id()
        self._emit(record, WebhookEventName.STATUS_ACCEPTED, accepted_keys(record.merchant_id))
        if speaks_docs(self._config.answerDialect):
            asked = {COVERING[product].product for product in
                     (record.products.products if record.products else [])}
            if ApprovalProduct.MCA in asked:
                self._emit(record, WebhookEventName.MCA_ACCEPTED,
                           accepted_keys(record.merchant_id))
                record.ucic_id = record.ucic_id or new_ucic_id()
                self._emit(record, WebhookEventName.VIRTUAL_ACCOUNT_PROVISIONED,
                           provisioned_keys(record.merchant_id, record.ucic_id))
            if ApprovalProduct.CARDS in asked and not cards_blocked:
                later = ApprovalProduct.MCA in asked
                self._emit(record, WebhookEventName.CARDS_ACCEPTED,
                           accepted_keys(record.merchant_id),
                           delay_seconds=self._config.cardsAcceptedSeconds if later else 0.0)
        if cards_blocked:
            self._emit(record, WebhookEventName.PENDENCY_UPDATED,
                       cards_blocked_keys(self._clock.now_ms()))

    def tick(self) -> None:
        """Do what is due on the sandbox clock: reviews first, then webhook deliveries."""
        with self._lock:
            now = self._clock.now()
            due = sorted((at, oid) for oid, at in self._reviews_due.items() if at <= now)
            for _at, onboarding_id in due:
                self.finish_review(onboarding_id)
        self.webhooks.tick()  # outside the lock: a receiver may call the API back
