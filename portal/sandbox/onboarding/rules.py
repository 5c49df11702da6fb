"""The sandbox's stand-ins for the gateway's outside checks: the PAN registry, the penny drop
and which callback URLs it accepts."""

from __future__ import annotations

from pydantic import HttpUrl

from portal.gateway.onboarding.requests import BankDetailsRequest
from portal.gateway.onboarding.vocabulary import PennyDropStatus
from portal.gateway.shapes import FieldError

#: Bank account and IFSC that pass the sandbox's penny drop (docs/gateway-contract.md, "Sandbox
#: test values").
PENNY_DROP_ACCOUNT = "1234567890"
PENNY_DROP_IFSC = "SBIN0000000"
#: The four digits of a PAN the sandbox treats as not existing.
MISSING_PAN_DIGITS = "9999"
#: The name the sandbox's bank holds when neither the holder's nor the business's name is known.
SANDBOX_HOLDER = "Sandbox account holder"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


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
