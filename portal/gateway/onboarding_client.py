"""OnboardingClient: one method per partner onboarding operation (CONTRACT.md).

Each answer carries its own gid (``answer.answer_gid``); the client keeps no state between
calls, so threads may share one (its transport keeps a connection pool per thread).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import requests

from portal.gateway.errors import ValidationFailed
from portal.gateway.onboarding_shapes import (
    OPERATIONS,
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    CategoriesData,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
    MerchantData,
    RedirectData,
    VerificationRedirectRequest,
    Webhook,
    WebhookList,
    body_json,
)
from portal.gateway.retry import RetryPolicy
from portal.gateway.shapes import ResponseModel, cross_field_errors, validate_payload
from portal.gateway.signing import HmacAuth
from portal.gateway.transport import Timeouts, Transport, json_bytes

Shape = TypeVar("Shape", bound=ResponseModel)


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
        self.transport = Transport(base_url, auth=HmacAuth(api_key, api_secret),
                                   timeouts=timeouts, retry=retry, session=session, **extra)

    def create_onboarding(self, request: CreateOnboardingRequest | dict) -> MerchantData:
        """Step 1: create the record. Never retried; a lost answer raises outcome unknown."""
        return self._call("create_onboarding", MerchantData, request)

    def update_business_details(self, onboarding_id: str,
                                request: BusinessDetailsRequest | dict) -> MerchantData:
        """Step 2: business details (refused after T&C acknowledgement)."""
        return self._call("update_business_details", MerchantData, request,
                          onboardingId=onboarding_id)

    def add_beneficial_owners(self, onboarding_id: str,
                              request: BeneficialOwnersRequest | list) -> MerchantData:
        """Step 3: the whole list of owners, replacing what the gateway had."""
        return self._call("add_beneficial_owners", MerchantData, request,
                          onboardingId=onboarding_id)

    def update_bank_details(self, onboarding_id: str,
                            request: BankDetailsRequest | dict) -> MerchantData:
        """Step 4: bank details; the answer carries the penny-drop outcome."""
        return self._call("update_bank_details", MerchantData, request,
                          onboardingId=onboarding_id)

    def update_auth_signatory(self, onboarding_id: str,
                              request: AuthSignatoryRequest | dict) -> MerchantData:
        """Step 5: the authorised signatory."""
        return self._call("update_auth_signatory", MerchantData, request,
                          onboardingId=onboarding_id)

    def upload_document(self, onboarding_id: str,
                        request: DocumentUploadRequest | dict) -> MerchantData:
        """Step 6: one document."""
        return self._call("upload_document", MerchantData, request, onboardingId=onboarding_id)

    def configure_products(self, onboarding_id: str,
                           request: ConfigureProductsRequest | dict) -> MerchantData:
        """Step 7: products and fees."""
        return self._call("configure_products", MerchantData, request,
                          onboardingId=onboarding_id)

    def get_verification_redirect(self, onboarding_id: str,
                                  request: VerificationRedirectRequest | dict) -> RedirectData:
        """Step 8: the single-use, 24-hour verification link."""
        return self._call("get_verification_redirect", RedirectData, request,
                          onboardingId=onboarding_id)

    def get_status(self, onboarding_id: str) -> MerchantData:
        """Step 9: the record and its checklist, read server-side."""
        return self._call("get_status", MerchantData, None, onboardingId=onboarding_id)

    def get_business_categories(self) -> CategoriesData:
        """The category lookup for natureOfBusiness."""
        return self._call("get_business_categories", CategoriesData, None)

    def register_webhook(self, mid: str, webhook_url: str) -> Webhook:
        """Have the partner's onboarding events POSTed to ``webhook_url``; ``mid`` is the
        partner's own MID."""
        return self._call("register_webhook", Webhook, {"webhookUrl": webhook_url}, mid=mid)

    def list_webhooks(self, mid: str) -> WebhookList:
        """The partner's registered webhooks."""
        return self._call("list_webhooks", WebhookList, None, mid=mid)

    def delete_webhook(self, mid: str, webhook_id: str) -> Webhook:
        """Stop sending events to one registered webhook."""
        return self._call("delete_webhook", Webhook, None, mid=mid, webhookId=webhook_id)

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

    def _call(self, name: str, shape: type[Shape], request: Any, **params: str) -> Shape:
        prepared = self.prepare(name, request, **params)
        reply = self.transport.send(prepared, name)
        body = reply.body if isinstance(reply.body, dict) else {}
        return shape.from_answer(body.get("data") or {}, str(body.get("gid") or ""))


def _plain(request: Any) -> Any:
    """Accept a shape or plain JSON; shapes are re-validated from their JSON form."""
    if hasattr(request, "model_dump"):
        return body_json(request)
    return request
