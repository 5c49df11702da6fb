"""Webhook deliveries as a partner's receiver sees them: event names, keys, the delivery log."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

from tests.support.sandbox import RunningSandbox

TNC = "MERCHANT_TERMS_AND_CONDITIONS_ACKNOWLEDGED"
DIGILOCKER = "MERCHANT_DIGILOCKER_CKYC_COMPLETED"
VKYC = "MERCHANT_VKYC_COMPLETED"
ACCEPTED = "MERCHANT_STATUS_ACCEPTED"
PENDENCY = "MERCHANT_PENDENCY_STATUS_UPDATED"
PENDENCY_KEYS = {f"pendency_info_{key}" for key in (
    "category", "sub_category", "reason", "status", "creation_time", "cards_approval_blocking",
    "mca_approval_blocking")}
COMMON_KEYS = {"event_id", "onboarding_id", "onboarding_status", "event_timestamp", "status"}


@dataclass
class Received:
    """One delivery as the receiver saw it."""

    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> dict[str, str]:
        """The JSON body."""
        return json.loads(self.body)


@dataclass
class Receiver:
    """A loopback webhook receiver: it records what arrives and answers from ``answers``."""

    url: str = ""
    received: list[Received] = field(default_factory=list)
    #: Status codes to answer with, first to last; 200 once they run out.
    answers: list[int] = field(default_factory=list)
    #: When set, the receiver waits for this event before answering.
    hold: threading.Event | None = None

    def events(self) -> list[str]:
        """The ``status`` (event name) of each delivery, in arrival order."""
        return [r.payload["status"] for r in self.received]


def verify_all(sandbox: RunningSandbox, onboarding_id: str) -> None:
    """The verification page's three steps, as the page calls them."""
    sandbox.backend.acknowledge_tnc(onboarding_id)
    sandbox.backend.complete_digilocker(onboarding_id)
    sandbox.backend.complete_verification(onboarding_id)


def outcomes(sandbox: RunningSandbox) -> list[tuple[str, int, int | None, str]]:
    """The delivery log as (event, attempt, status code, outcome)."""
    return [(d.event, d.attempt, d.status_code, d.outcome)
            for d in sandbox.backend.webhooks.deliveries()]
