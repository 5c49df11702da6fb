"""OnboardingClient: one method per partner onboarding operation (docs/gateway-contract.md,
"Partner onboarding").

Each answer carries its own gid (``answer.answer_gid``); the client keeps no state between
calls, so threads may share one (its transport keeps a connection pool per thread).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any, TypeVar

import requests
from pydantic import Field

from portal.gateway.errors import ValidationFailed
from portal.gateway.onboarding.answers import CategoriesData, MerchantData, RedirectData
from portal.gateway.onboarding.hmac import HmacAuth, SignedBody
from portal.gateway.onboarding.operations import OPERATIONS, body_json
from portal.gateway.onboarding.reading import (
    RecordAnswer,
    Shape,
    create_reader,
    record_reader,
    shape_reader,
    status_reader,
)
from portal.gateway.onboarding.requests import (
    DOCUMENT_CONTENT,
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
    VerificationRedirectRequest,
)
from portal.gateway.onboarding.webhooks import Webhook, WebhookList
from portal.gateway.retry import RetryPolicy
from portal.gateway.shapes import FieldError, cross_field_errors, validate_payload
from portal.gateway.transport import Reply, Timeouts, Transport, json_bytes

Read = TypeVar("Read")
#: How much of a document is Base64-encoded at a time (a multiple of 3, so the pieces join
#: into the Base64 of the whole).
ENCODE_CHUNK = 3 * 64 * 1024
#: Stands in for the content while the body around it is laid out by the shape.
_PLACEHOLDER = "AAAA"


class DocumentFile(DocumentUploadRequest):
    """Step 6 with its content in a file: the other fields checked by the shape itself, the
    file Base64-encoded into ``documentContent`` only as the request body is written."""

    #: Anything whose ``open("rb")`` reads the content: a Path, or a stored document.
    file: Any = Field(exclude=True)

    def cross_field_errors(self) -> list[FieldError]:
        """The file is the content: no inline content, no URL."""
        if self.documentContent is not None or self.url is not None:
            return [FieldError("file", "Send a file without documentContent or url")]
        return []


class OnboardingClient:
    """The partner onboarding API, signed with HMAC over the exact bytes sent."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        api_secret: str,
        *,
        timeouts: Timeouts = Timeouts(),
        retry: RetryPolicy = RetryPolicy(),
        session: requests.Session | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        extra = {"sleep": sleep} if sleep is not None else {}
        self._auth = HmacAuth(api_key, api_secret)
        self.transport = Transport(base_url, auth=self._auth,
                                   timeouts=timeouts, retry=retry, session=session, **extra)

    def create_onboarding(self, request: CreateOnboardingRequest | dict) -> RecordAnswer:
        """Step 1: create the record. Never retried; a lost answer, or one naming no
        onboardingId, raises outcome unknown."""
        return self._call("create_onboarding", create_reader, request)

    def update_business_details(self, onboarding_id: str,
                                request: BusinessDetailsRequest | dict) -> RecordAnswer:
        """Step 2: business details (refused after T&C acknowledgement)."""
        return self._call("update_business_details", record_reader, request,
                          onboardingId=onboarding_id)

    def add_beneficial_owners(self, onboarding_id: str,
                              request: BeneficialOwnersRequest | list) -> RecordAnswer:
        """Step 3: the whole list of owners, replacing what the gateway had."""
        return self._call("add_beneficial_owners", record_reader, request,
                          onboardingId=onboarding_id)

    def update_bank_details(self, onboarding_id: str,
                            request: BankDetailsRequest | dict) -> RecordAnswer:
        """Step 4: bank details; the answer carries the penny-drop outcome."""
        return self._call("update_bank_details", record_reader, request,
                          onboardingId=onboarding_id)

    def update_auth_signatory(self, onboarding_id: str,
                              request: AuthSignatoryRequest | dict) -> RecordAnswer:
        """Step 5: the authorised signatory."""
        return self._call("update_auth_signatory", record_reader, request,
                          onboardingId=onboarding_id)

    def upload_document(self, onboarding_id: str,
                        request: DocumentUploadRequest | dict) -> RecordAnswer:
        """Step 6: one document."""
        return self._call("upload_document", record_reader, request,
                          onboardingId=onboarding_id)

    def upload_document_file(self, onboarding_id: str, request: DocumentFile) -> RecordAnswer:
        """Step 6 for a document in a file, in bounded memory: the body is written (and
        signed) into a spooled temporary file, Base64 a chunk at a time, and sent from there."""
        operation = OPERATIONS["upload_document"]
        with self.document_body(request) as body:
            prepared = self.transport.prepare(
                operation.method, operation.url_path(onboardingId=onboarding_id), body=body)
            return self.transport.send_and_read(prepared, operation.name,
                                                record_reader(operation.name))

    def document_body(self, request: DocumentFile) -> SignedBody:
        """The upload's JSON body, byte for byte what ``upload_document`` sends for the same
        content: laid out by the shape around a placeholder, the file's Base64 in its place."""
        shaped = DocumentUploadRequest(**{**body_json(request), DOCUMENT_CONTENT: _PLACEHOLDER})
        before, _, after = json_bytes(body_json(shaped)).rpartition(json_bytes(_PLACEHOLDER))
        body = self._auth.signed_body()
        body.write(before + b'"')
        with request.file.open("rb") as content:  # its read(n) gives n bytes until the end
            for chunk in iter(lambda: content.read(ENCODE_CHUNK), b""):
                body.write(base64.b64encode(chunk))
        body.write(b'"' + after)
        return body.finish()

    def configure_products(self, onboarding_id: str,
                           request: ConfigureProductsRequest | dict) -> RecordAnswer:
        """Step 7: products and fees."""
        return self._call("configure_products", record_reader, request,
                          onboardingId=onboarding_id)

    def get_verification_redirect(self, onboarding_id: str,
                                  request: VerificationRedirectRequest | dict) -> RedirectData:
        """Step 8: the single-use, 24-hour verification link."""
        return self._call("get_verification_redirect", _shaped(RedirectData), request,
                          onboardingId=onboarding_id)

    def get_status(self, onboarding_id: str) -> MerchantData:
        """Step 9: the record and its checklist, read server-side."""
        return self._call("get_status", status_reader, None, onboardingId=onboarding_id)

    def get_business_categories(self) -> CategoriesData:
        """The category lookup for natureOfBusiness."""
        return self._call("get_business_categories", _shaped(CategoriesData), None)

    def register_webhook(self, mid: str, webhook_url: str) -> Webhook:
        """Have the partner's onboarding events POSTed to ``webhook_url``; ``mid`` is the
        partner's own MID."""
        return self._call("register_webhook", _shaped(Webhook), {"webhookUrl": webhook_url},
                          mid=mid)

    def list_webhooks(self, mid: str) -> WebhookList:
        """The partner's registered webhooks."""
        return self._call("list_webhooks", _shaped(WebhookList), None, mid=mid)

    def delete_webhook(self, mid: str, webhook_id: str) -> Webhook:
        """Stop sending events to one registered webhook."""
        return self._call("delete_webhook", _shaped(Webhook), None, mid=mid,
                          webhookId=webhook_id)

    def prepare(self, name: str, request: Any = None, **params: str) -> requests.PreparedRequest:
        """Validate and build one operation's signed request without sending it."""
        operation = OPERATIONS[name]
        body = None
        if operation.request is not None:
            if isinstance(request, operation.request):  # a shape was validated when it was built
                value, errors = request, cross_field_errors(request)
            else:
                value, errors = validate_payload(operation.request, _plain(request))
            if errors:
                raise ValidationFailed(f"{name}: the request is not valid", field_errors=errors)
            body = json_bytes(body_json(value))
        return self.transport.prepare(operation.method, operation.url_path(**params), body=body)

    def _call(self, name: str, reader: Callable[[str], Callable[[Reply], Read]], request: Any,
              **params: str) -> Read:
        """Send one operation and read its 2xx answer with ``reader(name)`` inside the
        transport's timed, counted call (``portal.gateway.onboarding.reading``)."""
        prepared = self.prepare(name, request, **params)
        return self.transport.send_and_read(prepared, name, reader(name))


def _shaped(shape: type[Shape]) -> Callable[[str], Callable[[Reply], Shape]]:
    """The reader of an operation whose answer is ``data`` as ``shape``."""
    return lambda name: shape_reader(name, shape)


def _plain(request: Any) -> Any:
    """Accept a shape or plain JSON; shapes are re-validated from their JSON form."""
    if hasattr(request, "model_dump"):
        return body_json(request)
    return request
