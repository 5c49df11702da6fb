"""Request checks: 400 per bad field, 403 for another partner's record, 404 for an unknown one."""

from __future__ import annotations

import json

import pytest
import requests

from portal.gateway.errors import Forbidden, NotFound, ValidationFailed
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.hmac import HmacAuth
from portal.gateway.onboarding.operations import OPERATIONS
from portal.sandbox.onboarding.categories import SUBCATEGORY_CODES
from tests.sandbox.payloads import (
    BODIES,
    MISSING_PAN,
    OWNER_PAN,
    bank,
    business,
    create_body,
    fill_every_step,
    owners,
    signatory,
)
from tests.sandbox.support import KEY, SECRET

RECORD_OPERATIONS = sorted(name for name, op in OPERATIONS.items()
                           if "{onboardingId}" in op.path)


def send_unchecked(client: OnboardingClient, name: str, body: object, **params: str):
    """Send a body the client's own checks would refuse, to see the sandbox refuse it."""
    operation = OPERATIONS[name]
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    prepared = client.transport.prepare(operation.method, operation.url_path(**params), body=raw)
    return client.transport.send(prepared, name)


def call(client: OnboardingClient, name: str, onboarding_id: str):
    """Call one record operation of the client with a valid body."""
    method = getattr(client, name)
    if name in BODIES:
        return method(onboarding_id, BODIES[name])
    return method(onboarding_id)


def fields_of(caught: pytest.ExceptionInfo[ValidationFailed]) -> list[str]:
    """The errorDetails field paths of a 400."""
    assert caught.value.http_status == 400
    assert caught.value.reason_code == "VALIDATION_ERROR"
    return [e.field for e in caught.value.field_errors]


def raw_put(url: str, onboarding_id: str, body: bytes, content_type: str) -> requests.Response:
    """A signed PUT of the signatory with any bytes and Content-Type."""
    path = OPERATIONS["update_auth_signatory"].url_path(onboardingId=onboarding_id)
    return requests.put(url + path, data=body, headers={"Content-Type": content_type},
                        auth=HmacAuth(KEY, SECRET), timeout=5)


@pytest.mark.parametrize("name", RECORD_OPERATIONS)
def test_unknown_onboarding_id_is_404(partner, name):
    with pytest.raises(NotFound) as caught:
        call(partner, name, "pg_onboard_000000000000000000000000")
    assert caught.value.reason_code == "NOT_FOUND"


@pytest.mark.parametrize("name", RECORD_OPERATIONS)
def test_another_partners_record_is_403(other_partner, onboarding_id, name):
    with pytest.raises(Forbidden) as caught:
        call(other_partner, name, onboarding_id)
    assert caught.value.reason_code == "FORBIDDEN"


def test_create_answers_201_with_the_new_record(sandbox_server):
    response = requests.post(sandbox_server.url + OPERATIONS["create_onboarding"].path,
                             json=create_body(external_id="shop-42"),
                             auth=HmacAuth(KEY, SECRET), timeout=5)
    assert response.status_code == 201
    body = response.json()
    info = body["data"]["merchantInfo"]
    assert info["onboardingId"].startswith("pg_onboard_")
    assert info["partnerOnboardingId"] == "shop-42"
    assert info["onboardingStatus"] == "INITIATED"
    assert body["reasonCode"] == ""
    assert body["timestamp"] == "02/03/2026 09:30:00"
    assert body["data"]["merchantOnboardingCheckListStatus"]["businessDetails"] == "PENDING"


def test_each_bad_field_gets_its_own_entry(partner):
    with pytest.raises(ValidationFailed) as caught:
        send_unchecked(partner, "create_onboarding",
                       {"externalOnboardingId": "bad id!", "panNumber": "12345", "extra": 1})
    assert sorted(fields_of(caught)) == ["externalOnboardingId", "extra", "panNumber"]


def test_nested_field_paths_are_dotted(partner, onboarding_id):
    bad = {**signatory(), "contact": {"phone": "12", "email": "not-an-email"}}
    with pytest.raises(ValidationFailed) as caught:
        send_unchecked(partner, "update_auth_signatory", bad, onboardingId=onboarding_id)
    assert sorted(fields_of(caught)) == ["contact.email", "contact.phone"]


def test_owner_errors_name_the_owner_index(partner, onboarding_id):
    bad = owners()
    bad[1]["pan"] = "ABCCE1234F"  # a company PAN cannot own
    with pytest.raises(ValidationFailed) as caught:
        send_unchecked(partner, "add_beneficial_owners", bad, onboardingId=onboarding_id)
    assert fields_of(caught) == ["[1].pan"]


def test_malformed_json_is_400_on_body(sandbox_server, onboarding_id):
    response = raw_put(sandbox_server.url, onboarding_id, b'{"authSignatoryName": ',
                       "application/json")
    assert response.status_code == 400
    assert response.json()["errorDetails"][0]["field"] == "body"


def test_non_json_content_type_is_400_on_body(sandbox_server, onboarding_id):
    body = json.dumps(signatory()).encode()
    response = raw_put(sandbox_server.url, onboarding_id, body, "text/plain")
    assert response.status_code == 400
    detail = response.json()["errorDetails"]
    assert detail == [{"field": "body", "message": "Content-Type must be application/json"}]


def test_empty_body_is_400_on_body(sandbox_server, onboarding_id):
    response = raw_put(sandbox_server.url, onboarding_id, b"", "application/json")
    assert response.status_code == 400
    assert response.json()["errorDetails"][0]["message"] == "The request body is empty"


def test_json_that_is_not_an_object_is_400(sandbox_server, onboarding_id):
    response = raw_put(sandbox_server.url, onboarding_id, b"[1, 2]", "application/json")
    assert response.status_code == 400
    assert response.json()["reasonCode"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("body", [b"NaN", b'{"authSignatoryName": Infinity}', b"\xff\xfe"])
def test_non_standard_json_is_400_on_body(sandbox_server, onboarding_id, body):
    response = raw_put(sandbox_server.url, onboarding_id, body, "application/json")
    assert response.status_code == 400
    assert response.json()["errorDetails"][0]["field"] == "body"


def test_create_with_missing_pan_is_400(partner):
    with pytest.raises(ValidationFailed) as caught:
        partner.create_onboarding(create_body(pan=MISSING_PAN))
    assert caught.value.field_errors[0].message == "PAN does not exist"
    assert fields_of(caught) == ["panNumber"]


def test_owner_with_missing_pan_is_400(partner, onboarding_id):
    listed = owners()
    listed[1]["pan"] = MISSING_PAN
    with pytest.raises(ValidationFailed) as caught:
        partner.add_beneficial_owners(onboarding_id, listed)
    assert fields_of(caught) == ["[1].pan"]


def test_signatory_with_missing_pan_is_400(partner, onboarding_id):
    with pytest.raises(ValidationFailed) as caught:
        partner.update_auth_signatory(onboarding_id, signatory(pan=MISSING_PAN))
    assert fields_of(caught) == ["authSignatoryPan"]
    assert caught.value.field_errors[0].message == "PAN does not exist"


def test_external_id_can_never_be_reused(sandbox_server, partner):
    first = partner.create_onboarding(create_body(external_id="shop-1")).record.merchantInfo
    with pytest.raises(ValidationFailed) as caught:
        partner.create_onboarding(create_body(pan="ABCFE1234F", external_id="shop-1"))
    assert fields_of(caught) == ["externalOnboardingId"]
    _reject(sandbox_server, partner, first.onboardingId)
    with pytest.raises(ValidationFailed) as caught:
        partner.create_onboarding(create_body(pan="ABCFE1234F", external_id="shop-1"))
    assert fields_of(caught) == ["externalOnboardingId"]


def test_external_id_is_unique_per_partner_only(partner, other_partner):
    partner.create_onboarding(create_body(external_id="shop-1"))
    other = other_partner.create_onboarding(create_body(external_id="shop-1")).record
    assert other.merchantInfo.partnerOnboardingId == "shop-1"


def test_one_live_record_per_pan(sandbox_server, partner):
    first = partner.create_onboarding(create_body(pan="ABCCE1234F")).record.merchantInfo
    with pytest.raises(ValidationFailed) as caught:
        partner.create_onboarding(create_body(pan="ABCCE1234F"))
    assert fields_of(caught) == ["panNumber"]
    _reject(sandbox_server, partner, first.onboardingId)
    again = partner.create_onboarding(create_body(pan="ABCCE1234F")).record
    assert again.merchantInfo.onboardingStatus == "INITIATED"


def _reject(sandbox_server, partner: OnboardingClient, onboarding_id: str) -> None:
    fill_every_step(partner, onboarding_id)
    partner.update_business_details(onboarding_id, business(registeredName="REJECT Me Ltd"))
    backend = sandbox_server.backend
    backend.complete_verification(onboarding_id)
    assert backend.finish_review(onboarding_id) == "REJECTED"


def test_nature_of_business_must_be_a_known_subcategory(partner, onboarding_id):
    assert "BUS.SPACE_TOURISM" not in SUBCATEGORY_CODES
    with pytest.raises(ValidationFailed) as caught:
        partner.update_business_details(onboarding_id,
                                        business(natureOfBusiness="BUS.SPACE_TOURISM"))
    assert fields_of(caught) == ["natureOfBusiness"]


def test_top_level_category_is_not_a_nature_of_business(partner, onboarding_id):
    with pytest.raises(ValidationFailed) as caught:
        send_unchecked(partner, "update_business_details", business(natureOfBusiness="BUS"),
                       onboardingId=onboarding_id)
    assert fields_of(caught) == ["natureOfBusiness"]


def test_business_categories_are_listed_with_types(partner):
    categories = partner.get_business_categories().categories
    codes = [c.categoryCode for c in categories]
    assert codes == ["AGRI", "CONT", "TRANS", "UTIL", "RETAIL", "CLOTH", "MISC", "BUS", "PROF",
                     "FOOD", "FIN", "GOV"]
    for category in categories:
        assert category.subcategories
        for sub in category.subcategories:
            assert sub.categoryCode.startswith(category.categoryCode + ".")
            assert sub.type in ("GOODS", "SERVICES")


def test_callback_url_must_be_https(partner, onboarding_id):
    with pytest.raises(ValidationFailed) as caught:
        partner.get_verification_redirect(onboarding_id,
                                          {"callBackUrl": "http://partner.example.com/done"})
    assert "callBackUrl" in fields_of(caught)
    with pytest.raises(ValidationFailed) as caught:
        send_unchecked(partner, "get_verification_redirect",
                       {"callBackUrl": "ftp://partner.example.com/done"},
                       onboardingId=onboarding_id)
    assert "callBackUrl" in fields_of(caught)


def test_bank_account_is_masked_in_answers(partner, onboarding_id):
    answer = partner.update_bank_details(onboarding_id, bank())
    settlement = answer.record.merchantInfo.settlementDetails
    assert settlement.bankAccountNumber == "XXXXXX7890"
    status = partner.get_status(onboarding_id).merchantInfo.settlementDetails
    assert status.bankAccountNumber == "XXXXXX7890"


def test_status_shows_what_was_submitted(partner, onboarding_id):
    partner.update_business_details(onboarding_id, business())
    partner.add_beneficial_owners(onboarding_id, owners())
    partner.update_auth_signatory(onboarding_id, signatory())
    info = partner.get_status(onboarding_id).merchantInfo
    assert info.onboardingStatus == "IN_PROGRESS"
    assert info.businessDetails.natureOfBusiness == "BUS.IT_SERVICES"
    assert info.businessDetails.businessMonthlySize == "50000"
    assert [o.pan for o in info.beneficialOwnerDetails] == [OWNER_PAN, "BCDPK5678L"]
    assert info.beneficialOwnerDetails[0].percentageOwnership == 60
    assert info.authorisedSignatoryDetails.contact.email == "asha@acme.example.com"


def test_unknown_method_on_a_known_path_is_404_after_auth(sandbox_server, onboarding_id):
    path = OPERATIONS["get_status"].url_path(onboardingId=onboarding_id)
    response = requests.delete(sandbox_server.url + path, auth=HmacAuth(KEY, SECRET), timeout=5)
    assert response.status_code == 404
    assert response.json()["reasonCode"] == "NOT_FOUND"
