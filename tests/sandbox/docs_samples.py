"""The answer samples of docs/gateway-contract.md, "Reading answers"
(``../shared/spec/samples-rev3``), and how an
answer of the sandbox's docs dialect is compared with one: the same keys and nesting, the same
JSON types, and the same status words (the values of :data:`WORDS`); other values may differ.

Where the shared folder is absent the tests skip, and under ``CI=true`` they fail
(``tests.conformance.conftest.require_shared``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conformance.support import require_shared

FOLDER = Path("spec") / "samples-rev3"
#: Keys whose values are status words, compared as they are.
WORDS = frozenset({"status", "code", "reasonCode", "refundStatus", "refundType",
                   "bankVerificationStatus", "documentStatus", "paymentMethod", "cardScheme",
                   "cardType", "onboarding_status", "pendency_info_status",
                   "pendency_info_category"})
#: The samples of answers, each produced by a test of the payments or the onboarding API.
PAYMENTS = ("capture-decline-2xx.docs.json", "capture-not-found.docs.json",
            "capture-success.docs.json", "initiate-minimal.openapi.json",
            "payment-status.docs.json", "refund.docs.json", "system-error.docs.json")
ONBOARDING = ("bank-details.docs.json", "checklist-variants.openapi.json",
              "upload-documents.docs.json")
#: Webhook payloads: not answers, the same in both dialects; the sandbox adds ``event_id``.
WEBHOOKS = ("webhook-merchant-accepted.docs.json", "webhook-pendency.docs.json",
            "webhook-vkyc-completed.docs.json")


def sample(name: str) -> dict[str, Any]:
    """One sample file: ``_source``, ``http`` (where one applies) and ``body``."""
    return json.loads(require_shared(FOLDER / name).read_text(encoding="utf-8"))


def sample_names() -> set[str]:
    """Every JSON sample in the folder."""
    return {path.name for path in require_shared(FOLDER).glob("*.json")}


def _kind(value: Any) -> str:
    """The JSON type of a value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else type(value).__name__


def outline(value: Any, words: frozenset[str] = WORDS, key: str = "") -> Any:
    """``value`` with every value replaced by its JSON type, except the status words."""
    if isinstance(value, dict):
        return {name: outline(item, words, name) for name, item in value.items()}
    if isinstance(value, list):
        return [outline(item, words, key) for item in value]
    return value if key in words else _kind(value)


def same_shape(answer: Any, name: str, words: frozenset[str] = WORDS) -> bool:
    """Whether ``answer`` has the keys, nesting, types and status words of sample ``name``'s
    body (asserted, so a difference shows both outlines)."""
    expected = outline(sample(name)["body"], words)
    assert outline(answer, words) == expected, name
    return True
