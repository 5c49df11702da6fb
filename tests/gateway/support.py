"""Shared data of the gateway tests: request bodies, gateway answers and known digests."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from prometheus_client import REGISTRY

from portal.gateway.onboarding.operations import PREFIX

STATUS_PATH = PREFIX + "/onboard/abc/status?note=a%20b%2Fc&x=%E2%82%B9"
# printf '%s' '/gcc/v2/partner/merchant/onboard/abc/status?note=a%20b%2Fc&x=%E2%82%B9'
#   | openssl dgst -sha256 -hmac 's3cr3t-Ω-key' -binary | base64
STATUS_PATH_DIGEST = "QLJqVsyVbnKrplgZFxDGVdo+NUKT5ZGIRkX25TXhJD8="
# printf '%s' '{"a":1}' | openssl dgst -sha256 -hmac 'secret'   (hex: what we must NOT send)
HEX_OF_A1 = "aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494"

CREATE = {"externalOnboardingId": "ext-0001", "panNumber": "ABCPE1234F"}
SIGNATORY = {
    "authSignatoryName": "Jöhn\u00a0\u00a0Dœ \t ₹ Sr",
    "authSignatoryPan": "AAAPZ1234C",
    "contact": {"phone": "+919876543210", "email": "john.doe@example.com"},
}
BANK = {
    "bankAccountNumber": "1234567890",
    "bankIfscCode": "SBIN0000000",
    "accountHolderName": "Jöhn Dœ",
    "accountType": "CURRENT",
}

# JWS tokens: the merchant, its key id and the instant every test token is issued at
MID = "MID-2024-00042"
KID = "kid-merchant-1"
NOW_MS = 1_736_000_000_000


def merchant(status: str = "INITIATED") -> dict[str, Any]:
    """The ``data`` of a record operation."""
    return {
        "merchantInfo": {
            "onboardingId": "ob-123",
            "partnerOnboardingId": "ext-0001",
            "onboardingStatus": status,
        },
        "merchantOnboardingCheckListStatus": {"businessDetails": "PENDING"},
    }


def error_body(status_text: str, gid: str, details: list[dict] | None = None) -> dict[str, Any]:
    """A gateway error envelope with ``status_text`` as reason code and optional field details."""
    return {
        "gid": gid,
        "timestamp": "01/01/2025 10:00:00",
        "reasonCode": status_text,
        "data": {},
        "errors": {"count": len(details or [])},
        "errorDetails": details or [],
    }


def independent_hmac(secret: str, data: bytes) -> str:
    """The Base64 HMAC-SHA256 of ``data``, computed with the standard library, not our code."""
    return base64.b64encode(hmac.new(secret.encode(), data, hashlib.sha256).digest()).decode()


def calls(operation: str, outcome: str) -> float:
    """The gateway call counter for ``operation`` and ``outcome`` so far."""
    return REGISTRY.get_sample_value("portal_gateway_calls_total",
                                     {"operation": operation, "outcome": outcome}) or 0.0
