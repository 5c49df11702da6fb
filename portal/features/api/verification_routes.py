"""The API's step 8: the gate, the gateway's verification link (minted as ops' page mints it),
and the merchant's own link, issued or emailed as the verification page does."""

from __future__ import annotations

from flask import url_for

from portal.core.clients import current_onboarding_client
from portal.core.config import current_settings
from portal.core.mail.sender import MailError
from portal.domain.api.scopes import Scope
from portal.domain.merchant_mail.delivery import DeliveryError, email_link
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding.verification_link import API, gate, mint_link, refresh_checklist
from portal.features.api.merchant_routes import found_merchant
from portal.features.api.more_schemas import (
    EmailedOut,
    GatewayLinkOut,
    MerchantLinkOut,
    VerificationOut,
)
from portal.features.api.operations import Answer, Call, operation
from portal.features.api.problems import Problem
from portal.gateway.onboarding.requests import VerificationRedirectRequest

RULE = "/merchants/<int:merchant_id>/verification"


@operation(RULE, "GET", scope=Scope.READ_MERCHANTS, answer=VerificationOut,
           summary="Whether a verification link may be asked for, and what is missing")
def read_verification(call: Call, merchant_id: int) -> Answer:
    """The gate, from the stored checklist (as the verification page shows it)."""
    found = gate(found_merchant(merchant_id))
    return Answer(VerificationOut(open=found.open, done=found.done, missing=found.missing))


@operation(RULE + "/gateway-link", "POST", scope=Scope.WRITE_MERCHANTS, status=201,
           summary="Mint the gateway's single-use, 24-hour verification link",
           answer=GatewayLinkOut, body=VerificationRedirectRequest)
def mint_gateway_link(call: Call, merchant_id: int) -> Answer:
    """Read the status, then mint a link whose page posts back to ``callBackUrl``'s origin."""
    merchant, client = found_merchant(merchant_id), current_onboarding_client()
    refresh_checklist(client, merchant, call.actor)
    found = gate(merchant)
    if not found.open:
        raise Problem(409, "No verification link may be asked for now: "
                      + ("the merchant finished verification." if found.done else
                         "still missing: " + "; ".join(found.missing) + "."))
    minted = mint_link(client, merchant, call.body["callBackUrl"], API, call.actor)
    if minted.link is None:
        if minted.missing:
            raise Problem(422, "The gateway refused the link: " + "; ".join(minted.missing))
        raise Problem(503, minted.error)
    return Answer(GatewayLinkOut(url=minted.url, mintedAt=minted.link.minted_at,
                                 expiresAt=minted.link.expires_at), 201)


@operation(RULE + "/merchant-link", "POST", scope=Scope.WRITE_MERCHANTS, status=201,
           summary="Issue the merchant's own 24-hour verification link (shown once)",
           answer=MerchantLinkOut)
def issue_merchant_link(call: Call, merchant_id: int) -> Answer:
    """Issue a link the merchant opens without a portal account, as the verification page's
    button does."""
    merchant = found_merchant(merchant_id)
    try:
        link, token = links.issue(current_settings().secret_key, merchant, call.actor)
    except links.LinkRefused as exc:
        raise Problem(409, str(exc)) from None
    url = url_for("verification.merchant_page", merchant_id=merchant.id, token=token,
                  _external=True)
    return Answer(MerchantLinkOut(id=link.id, url=url, expiresAt=link.expires_at), 201)


@operation(RULE + "/email", "POST", scope=Scope.WRITE_MERCHANTS,
           summary="Email the signatory a fresh verification link (again: a resend)",
           answer=EmailedOut)
def email_merchant_link(call: Call, merchant_id: int) -> Answer:
    """Email a fresh 24-hour link with the merchant-link template, as "Email the merchant"
    does; the older links stay valid until they expire."""
    merchant = found_merchant(merchant_id)
    try:
        shown = email_link(current_settings(), merchant, "merchant_link", call.actor)
    except DeliveryError as exc:
        if isinstance(exc.__cause__, MailError):
            raise Problem(503, str(exc)) from None
        raise Problem(409, str(exc)) from None
    return Answer(EmailedOut(sentTo=shown,
                             message=f"A verification link (valid 24 hours) was emailed to "
                                     f"{shown}."))
