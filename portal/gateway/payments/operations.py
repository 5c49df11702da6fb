"""The payments API's operations: each one's method, path, request and answer."""

from __future__ import annotations

from portal.gateway.operations import Operation
from portal.gateway.payments.answers import (
    ActionResponse,
    InitiateResponse,
    RefundResponse,
    StatusResponse,
)
from portal.gateway.payments.requests import (
    AuthReversalRequest,
    CaptureRequest,
    InitiateRequest,
    RefundRequest,
)

#: The payments API's path prefix.
PREFIX = "/gl/v1/payments"
#: The hosted checkout initiate path.
INITIATE_PATH = PREFIX + "/initiate/hosted"

_PAYMENT = PREFIX + "/{gid}"

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation("initiate", "POST", INITIATE_PATH, InitiateRequest, InitiateResponse,
                  "Initiate an authorize-only hosted-checkout payment"),
        Operation("status", "GET", PREFIX + "/{id}/status", None, StatusResponse,
                  "Get a payment's status by its gid or a merchantTxnId"),
        Operation("capture", "POST", _PAYMENT + "/capture", CaptureRequest, ActionResponse,
                  "Capture an authorised payment (once)"),
        Operation("auth_reversal", "POST", _PAYMENT + "/auth-reversal", AuthReversalRequest,
                  ActionResponse, "Release an authorised hold"),
        Operation("refund", "POST", _PAYMENT + "/refund", RefundRequest, RefundResponse,
                  "Refund a captured payment in full or in part"),
    )
}
