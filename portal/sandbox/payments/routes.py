"""HTTP face of the sandbox's payments API: authenticate, decode, validate, call the backend.

The JWS is checked before the body is even decoded, so a bad token is always a 401. Paths come
from the shared ``OPERATIONS`` table.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, jsonify, request, url_for

from portal.core.clock import Clock
from portal.gateway.payments.auth import (
    KEY_MID_HEADER,
    KID_HEADER,
    MERCHANT_HEADER,
    TOKEN_HEADER,
)
from portal.gateway.payments.operations import INITIATE_PATH, OPERATIONS, PREFIX
from portal.gateway.shapes import validate_payload
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.errors import ApiError, unauthorized, validation_error
from portal.sandbox.common.paths import flask_rule
from portal.sandbox.payments.answers import Answer, Answers
from portal.sandbox.payments.auth import CHECKOUT_SCOPE, STATUS_SCOPE, TOKEN_PARAM, Caller
from portal.sandbox.payments.backend import PaymentsBackend
from portal.sandbox.payments.checkout import checkout_blueprint, status_url

#: The hosted checkout's initiate path, and the openapi's, which the sandbox takes too.
INITIATE_PATHS = (INITIATE_PATH, PREFIX + "/initiate/paycollect")

#: Where the sandbox publishes the gateway's public key (its kid goes in ``x-gl-kid``).
GATEWAY_KEY_PATH = "/gl/v1/gateway-key.pem"


def install_payments(app: Flask, backend: PaymentsBackend, config: SandboxConfig,
                     clock: Clock) -> None:
    """Give the sandbox its payments API and hosted checkout page, over ``backend``."""
    app.register_blueprint(payments_blueprint(backend, config, clock))
    app.register_blueprint(checkout_blueprint(backend))


def payments_blueprint(backend: PaymentsBackend, config: SandboxConfig, clock: Clock
                       ) -> Blueprint:
    """The payments API over ``backend``, answering in ``config``'s dialect with ``clock``'s
    timestamps."""
    bp = Blueprint("sandbox_payments", __name__)

    def answers() -> Answers:
        return Answers(speaks_docs(config.answerDialect), clock.now())

    def sent(answer: Answer) -> tuple[Response, int]:
        body, status = answer
        return jsonify(body), status

    @bp.errorhandler(ApiError)
    def _refused(error: ApiError) -> tuple[Response, int]:
        """A payments refusal in the real gateway's envelope (errorDetails beside it in the
        contract's dialect)."""
        return sent(answers().refusal(error))

    def caller(signed: bytes) -> Caller:
        return backend.authenticate(request.headers.get(TOKEN_HEADER),
                                    request.headers.get(MERCHANT_HEADER),
                                    request.headers.get(KID_HEADER), signed,
                                    request.headers.get(KEY_MID_HEADER))

    def signed_body(operation: str) -> tuple[str, Any]:
        raw = request.get_data(cache=True)
        who = caller(raw)
        value, errors = validate_payload(OPERATIONS[operation].request,
                                         backend.decode_body(raw, who.encrypted))
        if errors:
            raise validation_error(errors)
        return who.mid, value

    @bp.get(GATEWAY_KEY_PATH)
    def gateway_key() -> Response:
        """The gateway's public key, to verify callbacks and encrypt JWE bodies."""
        key = backend.gateway_key
        return Response(key.public_pem, mimetype="application/x-pem-file",
                        headers={KID_HEADER: key.kid})

    def initiate() -> tuple[Response, int]:
        """Create a payment; answer where to send the customer (and where to poll)."""
        mid, value = signed_body("initiate")
        payment = backend.initiate(mid, value)
        checkout = backend.scoped_token(payment.gid, CHECKOUT_SCOPE)
        redirect = url_for("sandbox_checkout.page", _external=True, **{TOKEN_PARAM: checkout})
        return sent(answers().initiate(payment, redirect, status_url(backend, payment.gid)))

    for path in INITIATE_PATHS:
        bp.add_url_rule(path, endpoint=f"initiate_{path.rsplit('/', 1)[1]}", view_func=initiate,
                        methods=["POST"])

    @bp.get(flask_rule(OPERATIONS["status"].path), endpoint="status")
    def status(id: str) -> tuple[Response, int]:  # `{id}`, as the contract names it
        """The status by gid or merchantTxnId (of the payment or of one of its captures,
        reversals or refunds): signed with a JWS over the path, or opened by the statusUrl's
        token (which opens its own payment only)."""
        if TOKEN_HEADER in request.headers or TOKEN_PARAM not in request.args:
            mid: str | None = caller(request.path.encode("utf-8")).mid
            payment, action = backend.find(id, mid)
        else:
            gid = backend.gid_of(request.args[TOKEN_PARAM], STATUS_SCOPE)
            payment, action = backend.find(id, backend.get(gid).mid)
            if payment.gid != gid:
                raise unauthorized("This x-gl-token is for another payment")
        return sent(answers().status(payment, action))

    @bp.post(flask_rule(OPERATIONS["capture"].path))
    def capture(gid: str) -> tuple[Response, int]:
        """Capture the hold once, in full or in part."""
        mid, value = signed_body("capture")
        return sent(answers().action(*backend.capture(mid, gid, value)))

    @bp.post(flask_rule(OPERATIONS["auth_reversal"].path))
    def auth_reversal(gid: str) -> tuple[Response, int]:
        """Release the hold; only before capture."""
        mid, value = signed_body("auth_reversal")
        return sent(answers().action(*backend.reverse(mid, gid, value)))

    @bp.post(flask_rule(OPERATIONS["refund"].path))
    def refund(gid: str) -> tuple[Response, int]:
        """Refund a captured payment, in full or in part: answered in the shape the official
        PHP SDK recorded from the real gateway (the docs' refund page's in the docs dialect)."""
        mid, value = signed_body("refund")
        return sent(answers().refund(*backend.refund(mid, gid, value)))

    return bp
