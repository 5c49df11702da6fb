"""Why a merchant's payments are paused, or the merchant deactivated: one list per kind, each
code with its words (the pages show the words, the rows and the audit keep the code)."""

from __future__ import annotations

from portal.core.models.merchant_stop import StopKind

OTHER = "other"
#: Each kind's reasons, in the order the form lists them.
REASONS: dict[StopKind, dict[str, str]] = {
    StopKind.PAUSE: {
        "fraud_review": "Suspected fraud under review",
        "disputes": "Too many disputes or chargebacks",
        "compliance": "A compliance review",
        "merchant_request": "The merchant asked for a pause",
        "unpaid_fees": "Unpaid fees",
        OTHER: "Another reason (said in the note)",
    },
    StopKind.DEACTIVATE: {
        "closed": "The merchant closed its business",
        "merchant_request": "The merchant asked to leave",
        "contract_ended": "The contract ended",
        "compliance": "Offboarded after a compliance review",
        OTHER: "Another reason (said in the note)",
    },
}
#: What each kind is called in a sentence.
KIND_WORDS = {StopKind.PAUSE: "paused", StopKind.DEACTIVATE: "deactivated"}


def reason_words(kind: str, code: str) -> str:
    """A stop's reason in words (the code itself, humanised, if the list no longer has it)."""
    return REASONS[StopKind(kind)].get(code) or code.replace("_", " ").capitalize()
