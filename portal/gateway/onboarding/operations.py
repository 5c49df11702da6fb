"""The onboarding API's operations: each one's method, path, request and answer, and how a body
goes on the wire."""

from __future__ import annotations

from typing import Any

from pydantic import RootModel

from portal.gateway.onboarding.answers import CategoriesData, MerchantData, RedirectData
from portal.gateway.onboarding.requests import (
    AuthSignatoryRequest,
    BankDetailsRequest,
    BeneficialOwnersRequest,
    BusinessDetailsRequest,
    ConfigureProductsRequest,
    CreateOnboardingRequest,
    DocumentUploadRequest,
    VerificationRedirectRequest,
)
from portal.gateway.onboarding.webhooks import Webhook, WebhookList, WebhookRegistrationRequest
from portal.gateway.operations import Operation
from portal.gateway.shapes import (
    dump,
)

#: The onboarding API's path prefix.
PREFIX = "/gcc/v2/partner/merchant"
_RECORD = PREFIX + "/onboard/{onboardingId}"
#: The partner's webhooks; ``{mid}`` is the partner's own (reseller) MID.
#: docs/gateway-facts.md A1 gives the POST; the list and delete paths are the sandbox's
#: plausible siblings of it.
WEBHOOKS_PATH = "/gcc/v2/partner/{mid}/webhook"

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation(
            "create_onboarding",
            "POST",
            PREFIX + "/onboard",
            CreateOnboardingRequest,
            MerchantData,
            "Create onboarding",
        ),
        Operation(
            "update_business_details",
            "PUT",
            _RECORD + "/business-details",
            BusinessDetailsRequest,
            MerchantData,
            "Update business details",
        ),
        Operation(
            "add_beneficial_owners",
            "PUT",
            _RECORD + "/beneficial-owner",
            BeneficialOwnersRequest,
            MerchantData,
            "Add beneficial owners (replaces all)",
        ),
        Operation(
            "update_bank_details",
            "PUT",
            _RECORD + "/bank-details",
            BankDetailsRequest,
            MerchantData,
            "Update bank details (runs penny drop)",
        ),
        Operation(
            "update_auth_signatory",
            "PUT",
            _RECORD + "/auth-signatory",
            AuthSignatoryRequest,
            MerchantData,
            "Update authorised signatory",
        ),
        Operation(
            "upload_document",
            "PUT",
            _RECORD + "/docs",
            DocumentUploadRequest,
            MerchantData,
            "Upload one document",
        ),
        Operation(
            "configure_products",
            "PUT",
            _RECORD + "/products",
            ConfigureProductsRequest,
            MerchantData,
            "Configure products and fees",
        ),
        Operation(
            "get_verification_redirect",
            "PUT",
            PREFIX + "/verification/{onboardingId}/redirect",
            VerificationRedirectRequest,
            RedirectData,
            "Get the verification redirect link",
        ),
        Operation(
            "get_status", "GET", _RECORD + "/status", None, MerchantData, "Get onboarding status"
        ),
        Operation(
            "get_business_categories",
            "GET",
            PREFIX + "/onboard/business-category",
            None,
            CategoriesData,
            "Get business categories",
        ),
        Operation(
            "register_webhook",
            "POST",
            WEBHOOKS_PATH,
            WebhookRegistrationRequest,
            Webhook,
            "Register a webhook for onboarding events",
        ),
        Operation("list_webhooks", "GET", WEBHOOKS_PATH, None, WebhookList,
                  "List the registered webhooks"),
        Operation("delete_webhook", "DELETE", WEBHOOKS_PATH + "/{webhookId}", None, Webhook,
                  "Delete a registered webhook"),
    )
}


def body_json(value: Any) -> Any:
    """Plain-JSON form of a request value (a list for the owners' root model)."""
    return dump(value.root if isinstance(value, RootModel) else value)
