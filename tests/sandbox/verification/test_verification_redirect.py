"""The verification redirect: the gate on a ready record and the single-use 24-hour token."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

from portal.gateway.errors import ValidationFailed
from portal.sandbox.onboarding.backend import TOKEN_LIFETIME
from tests.sandbox.checklists import OWNER_AADHARS, SECTIONS
from tests.sandbox.payloads import CALLBACK, bank, business, fill_every_step, owners, signatory


def token_of(link: str) -> str:
    """The token in a redirect link."""
    return parse_qs(urlsplit(link).query)["token"][0]


def test_redirect_gate_lists_every_missing_section(partner, onboarding_id):
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert [e.field for e in caught.value.field_errors] == SECTIONS


def test_redirect_gate_lists_every_outstanding_document(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business())
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.update_bank_details(onboarding_id, bank(account="9876543210"))
    partner.update_auth_signatory(onboarding_id, signatory())
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert [e.field for e in caught.value.field_errors] == [
        "products",
        *(f"documentsToBeUploaded.{doc}" for doc in [*OWNER_AADHARS, "CANCELLED_CHEQUE"]),
    ]


def test_loopback_http_callback_is_allowed(partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    for url in ("http://127.0.0.1:5000/done", "http://localhost/done", "http://[::1]:8080/x"):
        assert partner.get_verification_redirect(onboarding_id, {"callBackUrl": url})


def test_token_is_stored_single_use_and_expires_after_24_hours(sandbox_server, partner,
                                                               onboarding_id):
    fill_every_step(partner, onboarding_id)
    backend, clock = sandbox_server.backend, sandbox_server.clock
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    token = backend.lookup_token(token_of(link.redirectLink))
    assert token is not None
    assert (token.onboarding_id, token.callback_url) == (onboarding_id, CALLBACK)
    assert token.expires_at == clock.now() + TOKEN_LIFETIME
    clock.advance((TOKEN_LIFETIME - timedelta(seconds=1)).total_seconds())
    assert backend.lookup_token(token.token) is not None
    clock.advance(1)
    assert backend.lookup_token(token.token) is None
    assert backend.consume_token(token.token) is None


def test_token_can_be_consumed_once(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    link = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    token = token_of(link.redirectLink)
    assert sandbox_server.backend.consume_token(token) is not None
    assert sandbox_server.backend.consume_token(token) is None
    assert sandbox_server.backend.lookup_token(token) is None


def test_each_redirect_issues_a_new_token(partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    first = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    second = partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert token_of(first.redirectLink) != token_of(second.redirectLink)


def test_redirect_after_verification_is_400(sandbox_server, partner, onboarding_id):
    fill_every_step(partner, onboarding_id)
    sandbox_server.backend.complete_verification(onboarding_id)
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": CALLBACK})
    assert [e.field for e in caught.value.field_errors] == ["onboardingStatus"]
