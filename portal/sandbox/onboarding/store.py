"""The onboarding API's state and the internals every operation shares: keys, records, the
request log, and how a record's status follows from what was submitted."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from pydantic import TypeAdapter

from portal.core.clock import Clock
from portal.gateway.onboarding.checklist_words import ChecklistState
from portal.gateway.onboarding.events import WebhookEventName
from portal.gateway.onboarding.reading import RFI_DETAILS
from portal.gateway.onboarding.vocabulary import OnboardingStatus
from portal.gateway.shapes import FieldError
from portal.sandbox.common import snapshots
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.errors import forbidden, not_found, validation_error
from portal.sandbox.onboarding.auth import PartnerKeyState
from portal.sandbox.onboarding.docs_answers import docs_words_differ, rfi_details
from portal.sandbox.onboarding.present import checklist, merchant_data
from portal.sandbox.onboarding.records import OnboardingRecord, ReceivedRequest, VerificationToken
from portal.sandbox.onboarding.status_names import status_name, with_status_names
from portal.sandbox.webhooks.dispatcher import WebhookDispatcher
from portal.sandbox.webhooks.events import STEP_KEYS, payload

_RECORDS = TypeAdapter(list[OnboardingRecord])
_TOKENS = TypeAdapter(list[VerificationToken])
#: Statuses in which the record's status follows from what has been submitted.
_OPEN_STATUSES = frozenset(
    {OnboardingStatus.INITIATED, OnboardingStatus.IN_PROGRESS,
     OnboardingStatus.PENDING_VERIFICATION}
)


class OnboardingStore:
    """Resettable, thread-safe records, keys and request log of the onboarding API; one lock
    guards everything, since the sandbox is served threaded."""

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

    def snapshot(self) -> dict[str, Any]:
        """What a restart must keep, as JSON: records, verification tokens, reviews due and the
        webhooks (registrations and queued deliveries). Keys come from the config file; the
        request log is for tests."""
        with self._lock:
            return {"records": snapshots.dump(_RECORDS, list(self._records.values())),
                    "tokens": snapshots.dump(_TOKENS, list(self._tokens.values())),
                    "reviewsDue": {key: due.isoformat() for key, due in self._reviews_due.items()},
                    "webhooks": self.webhooks.snapshot()}

    def restore(self, data: dict[str, Any]) -> None:
        """Take back what :meth:`snapshot` kept (a ValidationError if it is not that)."""
        records = snapshots.load(_RECORDS, data.get("records", []))
        tokens = snapshots.load(_TOKENS, data.get("tokens", []))
        with self._lock:
            self._records = {record.onboarding_id: record for record in records}
            self._tokens = {token.token: token for token in tokens}
            self._reviews_due = {key: datetime.fromisoformat(due)
                                 for key, due in data.get("reviewsDue", {}).items()}
            self.webhooks.restore(data.get("webhooks", {}))

    def activity(self) -> tuple[int, int, int]:
        """A cheap mark of what a tick changes (reviews due, deliveries queued, delivery
        attempts made): equal before and after a tick that did nothing."""
        with self._lock:
            reviews = len(self._reviews_due)
        return reviews, self.webhooks.pending(), self.webhooks.attempted()

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

    @staticmethod
    def missing_items(record: OnboardingRecord) -> list[FieldError]:
        """One entry per section not submitted and per document outstanding."""
        missing = [FieldError(key, "This step is not complete")
                   for key, done in record.sections().items() if not done]
        missing += [FieldError(f"documentsToBeUploaded.{doc}", "This document is outstanding")
                    for doc in checklist(record).documentsToBeUploaded]
        return missing

    # ------------------------------------------------------------ internals

    def _update(self, partner_id: str, onboarding_id: str,
                apply: Callable[[OnboardingRecord], None]) -> dict:
        with self._lock:
            record = self._owned(partner_id, onboarding_id)
            apply(record)
            self._refresh_status(record)
            return self._data(record)

    def _data(self, record: OnboardingRecord) -> dict:
        # the dialect is asked only where it changes the answer (the tests count who asks)
        differing = docs_words_differ(record)
        docs = differing is not None and speaks_docs(self._config.answerDialect)
        data = merchant_data(record, differing if docs else None)
        if docs and record.status is OnboardingStatus.RFI:
            data[RFI_DETAILS] = rfi_details(record)
        return with_status_names(data, self._config)

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
              extra: dict[str, str], delay_seconds: float = 0.0) -> None:
        secret = next((key.secret for key in self._keys.values()
                       if key.partner_id == record.partner_id and key.active), None)
        at_ms = self._clock.now_ms() + int(delay_seconds * 1000)
        self.webhooks.emit(payload(event, record.onboarding_id,
                                   status_name(record.status, self._config), at_ms, extra),
                           secret, record.partner_id, timedelta(seconds=delay_seconds))

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
