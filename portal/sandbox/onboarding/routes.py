"""The onboarding API's HTTP side: authenticate first, parse and validate, call the backend.

Routes come from the shared ``OPERATIONS`` table, so paths and methods are spelled once. Any
other path under the API prefix is still authenticated before it answers 404.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, g, jsonify, request

from portal.core.clock import Clock
from portal.gateway.onboarding.hmac import DIGEST_HEADER
from portal.gateway.onboarding.operations import OPERATIONS, PREFIX
from portal.gateway.operations import Operation
from portal.gateway.shapes import validate_payload
from portal.sandbox.common.config import SandboxConfig
from portal.sandbox.common.dialect import speaks_docs
from portal.sandbox.common.envelopes import envelope
from portal.sandbox.common.errors import forbidden, not_found, validation_error
from portal.sandbox.common.json_body import read_json
from portal.sandbox.common.paths import flask_rule
from portal.sandbox.onboarding import upload_body
from portal.sandbox.onboarding.auth import authenticate, authenticate_streamed, raw_request_path
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.onboarding.categories import categories_data
from portal.sandbox.onboarding.docs_answers import DOCS_SHAPED, docs_answer
from portal.sandbox.onboarding.records import ReceivedRequest
from portal.sandbox.onboarding.streamed_json import SpooledBody, read_spooled_json

#: A streamed body up to this size is kept in the log whole.
LOGGED_BYTES = 64 * 1024
#: Operations that answer 201 Created; the rest answer 200.
CREATED = frozenset({"create_onboarding", "register_webhook"})
_ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]

#: handler(partner_id, onboardingId or webhookId, validated request) -> ``data`` of the answer.
Handler = Callable[[str, str, Any], dict]


def _handlers(backend: OnboardingBackend) -> dict[str, Handler]:
    return {
        "create_onboarding": lambda partner, _id, value: backend.create_onboarding(partner, value),
        "update_business_details": backend.update_business_details,
        "add_beneficial_owners": backend.add_beneficial_owners,
        "update_bank_details": backend.update_bank_details,
        "update_auth_signatory": backend.update_auth_signatory,
        "upload_document": backend.upload_document,
        "configure_products": backend.configure_products,
        "get_verification_redirect": lambda partner, onboarding_id, value: (
            backend.get_verification_redirect(partner, onboarding_id, value, request.host_url)
        ),
        "get_status": lambda partner, onboarding_id, _value: (
            backend.get_status(partner, onboarding_id)
        ),
        "get_business_categories": lambda *_: categories_data(),
        "register_webhook": lambda partner, _id, value: backend.register_webhook(partner, value),
        "list_webhooks": lambda partner, *_: backend.list_webhooks(partner),
        "delete_webhook": lambda partner, webhook_id, _value: (
            backend.delete_webhook(partner, webhook_id)
        ),
    }


def validated_body(operation: Operation, max_document_bytes: int) -> Any:
    """The request body checked against the operation's shared request shape (a document
    upload's from its spooled body, its content a chunk at a time)."""
    if operation.name == upload_body.OPERATION:
        value, errors = upload_body.validated_upload(read_spooled_json(request, g.body),
                                                     max_document_bytes)
    else:
        value, errors = validate_payload(operation.request, read_json(request))
    if errors:
        raise validation_error(errors)
    return value


def received(raw: bytes | None, spooled: SpooledBody | None = None) -> ReceivedRequest:
    """The request as it arrived, for the log: ``raw``, the body read whole, or a ``spooled``
    body by its size and SHA-256 (its bytes too up to LOGGED_BYTES; neither: it was not read)."""
    size, sha256 = ((spooled.size, spooled.sha256) if spooled else
                    (len(raw), hashlib.sha256(raw).hexdigest()) if raw is not None else (0, ""))
    if spooled is not None and spooled.size <= LOGGED_BYTES:
        raw = spooled.file.read()
        spooled.file.seek(0)
    return ReceivedRequest(
        method=request.method, raw_path=raw_request_path(request.environ), body=raw or b"",
        header_names=tuple(request.headers.keys()), size=size, sha256=sha256,
        digest=request.headers.get(DIGEST_HEADER, ""))


def onboarding_blueprint(backend: OnboardingBackend, clock: Clock,
                         config: SandboxConfig) -> Blueprint:
    """The partner onboarding API over ``backend``, answering with ``clock``'s timestamps;
    an upload's document may be up to the ``config``'s maxDocumentBytes decoded."""
    bp = Blueprint("onboarding", __name__)
    handlers = _handlers(backend)
    streamed = f"{bp.name}.{upload_body.OPERATION}"

    @bp.before_request
    def _log_and_authenticate() -> None:
        if request.endpoint != streamed:
            backend.log_request(received(request.get_data(cache=True)))
            g.partner_id = authenticate(request, backend.active_key)
            return
        request.max_content_length = upload_body.body_limit(config.maxDocumentBytes)
        try:
            g.partner_id, g.body = authenticate_streamed(request, backend.active_key)
        finally:
            backend.log_request(received(None, g.get("body")))

    @bp.teardown_request
    def _drop_spooled_body(_error: BaseException | None) -> None:
        if "body" in g:
            g.body.file.close()

    def view(operation: Operation) -> Callable[..., tuple[Response, int]]:
        """The view of one operation: validate its body, call its handler, wrap the answer."""

        def handle(**params: str) -> tuple[Response, int]:
            if params.get("mid", g.partner_id) != g.partner_id:
                raise forbidden("This MID belongs to another partner")
            value = (validated_body(operation, config.maxDocumentBytes)
                     if operation.request is not None else None)
            record_id = params.get("onboardingId") or params.get("webhookId", "")
            data = handlers[operation.name](g.partner_id, record_id, value)
            status = 201 if operation.name in CREATED else 200
            docs = (docs_answer(operation.name, data, value) if operation.name in DOCS_SHAPED
                    and speaks_docs(config.answerDialect) else None)
            return jsonify(docs or envelope(data, now=clock.now())), status

        return handle

    for operation in OPERATIONS.values():
        bp.add_url_rule(flask_rule(operation.path), endpoint=operation.name,
                        view_func=view(operation), methods=[operation.method])

    @bp.route(PREFIX + "/<path:_rest>", methods=_ALL_METHODS)
    def _unknown(_rest: str) -> Response:
        raise not_found("No such onboarding operation")

    return bp
