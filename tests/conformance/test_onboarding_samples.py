"""The onboarding samples behind contract revision 2 (docs/gateway-facts.md section C), replayed
over loopback HTTP: request samples against the sandbox, byte for byte as published; answer samples
served to the portal's client from a loopback stub, as the gateway's pages recorded them.

Sources: docs/gateway-facts.md (section C, with A2, A3, A7
and A8 for the field lists), which cites the gateway's API reference pages (update-business-
details, update-bank-details, get-status) and its partner-onboarding-events guide. The samples
below are written from those field lists with our own values.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from flask import Flask, Response

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.onboarding.hmac import hmac_digest
from portal.gateway.onboarding.requests import BankDetailsRequest, BusinessDetailsRequest
from portal.gateway.onboarding.vocabulary import known_status
from portal.gateway.retry import NO_RETRY
from portal.gateway.shapes import validate_payload
from tests.support.servers import serve
from tests.support.settings import API_KEY, API_SECRET

PREFIX = "/gcc/v2/partner/merchant/onboard"

#: docs/gateway-facts.md C "Business-details request" (api-reference update-business-details): no
#: registeredName; addresses nested.
BUSINESS_DETAILS_SAMPLE = """{
  "entityType": "PVT_LTD_COMPANY",
  "natureOfBusiness": "BUS.IT_SERVICES",
  "tradeName": "Lotus Traders",
  "websiteUrl": "https://lotus-traders.example",
  "purposeCode": "P0802",
  "expectedMonthlyVolume": {"amount": "50000", "currency": "USD"},
  "address": {
    "isOperatingSameAsRegistered": true,
    "businessRegisteredAddress": {
      "streetAddress1": "12 Linking Road",
      "streetAddress2": "Second floor",
      "zipcode": "400050",
      "stateCode": "MH",
      "city": "Pune",
      "state": "Maharashtra"
    }
  }
}"""

#: docs/gateway-facts.md C "Bank-details request" (api-reference update-bank-details): no
#: accountHolderName.
BANK_DETAILS_SAMPLE = """{
  "bankAccountNumber": "501234567890",
  "bankIfscCode": "HDFC0000123",
  "accountType": "CURRENT"
}"""

#: docs/gateway-facts.md A3 (openapi get-status): checklist values of its own (SUCCESS,
#: PENDING_REVIEW).
STATUS_SAMPLE: dict[str, Any] = {
    "gid": "gl_0a1b2c3d4e5f6a7b", "timestamp": "10/01/2026 15:00:00", "reasonCode": "",
    "data": {
        "merchantInfo": {"onboardingId": "pg_onboard_sample01",
                         "partnerOnboardingId": "partner-sample-001",
                         "onboardingStatus": "PENDING_REVIEW"},
        "merchantOnboardingCheckListStatus": {
            "businessDetails": "COMPLETE", "beneficialOwners": "COMPLETE",
            "bankDetails": "COMPLETE", "authorisedSignatory": "COMPLETE",
            "vkyc": "PENDING_REVIEW", "digiLocker": "SUCCESS", "tncAcknowledged": "COMPLETE",
            "documents": "COMPLETE", "products": "COMPLETE", "documentsToBeUploaded": []}}}

#: docs/gateway-facts.md A8 keys with the status names of A3 "Webhook examples" (UNDER_REVIEW,
#: ACCEPTED).
WEBHOOK_SAMPLES = [
    {"onboarding_id": "pg_onboard_sample01", "onboarding_status": "UNDER_REVIEW",
     "event_timestamp": "1790000000000", "status": "MERCHANT_VKYC_COMPLETED",
     "vkyc_completed": "true"},
    {"onboarding_id": "pg_onboard_sample01", "onboarding_status": "ACCEPTED",
     "event_timestamp": "1790086400000", "status": "MERCHANT_STATUS_ACCEPTED",
     "merchant_id": "ucic_sample_01"},
]


def put_raw(base_url: str, path: str, body: bytes) -> requests.Response:
    """PUT the exact sample bytes, signed as the contract says (HMAC over the bytes sent)."""
    return requests.put(base_url + path, data=body, timeout=5, headers={
        "Content-Type": "application/json", "x-gl-auth": API_KEY,
        "x-gl-digest": hmac_digest(API_SECRET, body)})


@pytest.fixture
def partner(sandbox) -> OnboardingClient:
    """The portal's client for the sandbox, never retrying."""
    return OnboardingClient(sandbox.url, API_KEY, API_SECRET, retry=NO_RETRY)


@pytest.fixture
def onboarding_id(partner) -> str:
    """A record created on the sandbox (docs/gateway-facts.md A1: externalOnboardingId,
    panNumber)."""
    created = partner.create_onboarding({"externalOnboardingId": "partner-sample-001",
                                        "panNumber": "ABCCE1234F"})
    return created.onboarding_id


def test_business_details_sample_is_accepted_and_answered_flat(sandbox, partner,
                                                               onboarding_id):
    """Source: docs/gateway-facts.md C "Business-details request" (api-reference
    update-business-details). The addresses come nested under ``address`` and
    there is no registeredName; the answer's businessDetails stays flat (spec 2.3)."""
    answer = put_raw(sandbox.url, f"{PREFIX}/{onboarding_id}/business-details",
                     BUSINESS_DETAILS_SAMPLE.encode())
    assert answer.status_code == 200, answer.text
    details = answer.json()["data"]["merchantInfo"]["businessDetails"]
    assert details["businessRegisteredAddress"]["zipcode"] == "400050"
    assert details["businessOperatingAddress"] == details["businessRegisteredAddress"]
    assert "address" not in details and details["registeredName"] is None
    assert validate_payload(BusinessDetailsRequest, json.loads(BUSINESS_DETAILS_SAMPLE))[1] == []

    info = partner.get_status(onboarding_id).merchantInfo  # the client reads the flat answer
    assert info.businessDetails.tradeName == "Lotus Traders"
    assert info.businessDetails.businessRegisteredAddress.city == "Pune"


def test_bank_details_sample_without_holder_name_is_accepted(sandbox, onboarding_id):
    """Source: docs/gateway-facts.md C "Bank-details request" (api-reference
    update-bank-details). The pair is not the sandbox's penny-drop pair, so
    the penny drop fails and a cancelled cheque is asked for (docs/gateway-facts.md A9)."""
    answer = put_raw(sandbox.url, f"{PREFIX}/{onboarding_id}/bank-details",
                     BANK_DETAILS_SAMPLE.encode())
    assert answer.status_code == 200, answer.text
    data = answer.json()["data"]
    assert data["merchantInfo"]["settlementDetails"]["pennyDropStatus"] == "FAILED"
    assert data["merchantInfo"]["settlementDetails"]["accountHolderName"] is None
    assert data["merchantOnboardingCheckListStatus"]["documentsToBeUploaded"] == [
        "CANCELLED_CHEQUE"]
    assert validate_payload(BankDetailsRequest, json.loads(BANK_DETAILS_SAMPLE))[1] == []


def test_the_revision_1_flat_business_body_is_refused_on_the_flat_fields(sandbox,
                                                                          onboarding_id):
    """Source: docs/gateway-facts.md C "A2 above already listed the address field; revision 1 of the
    contract had flattened it by mistake": the flat body must not pass for a valid one."""
    sample = json.loads(BUSINESS_DETAILS_SAMPLE)
    flat = {**{k: v for k, v in sample.items() if k != "address"}, **sample["address"]}
    answer = put_raw(sandbox.url, f"{PREFIX}/{onboarding_id}/business-details",
                     json.dumps(flat).encode())
    assert answer.status_code == 400
    fields = {e["field"] for e in answer.json()["errorDetails"]}
    assert fields == {"address", "isOperatingSameAsRegistered", "businessRegisteredAddress"}


@pytest.fixture
def recorded_gateway() -> Iterator[dict[str, Any]]:
    """A loopback stub answering the status read with whatever answer the test sets."""
    served: dict[str, Any] = {"answer": STATUS_SAMPLE}
    app = Flask(__name__)

    @app.get(f"{PREFIX}/<onboarding_id>/status")
    def status(onboarding_id: str) -> Response:
        return Response(json.dumps(served["answer"]), mimetype="application/json")

    with serve(app) as url:
        served["url"] = url
        yield served


def with_info(**info: str) -> dict[str, Any]:
    """STATUS_SAMPLE with merchantInfo's status fields replaced."""
    merchant = {"onboardingId": "pg_onboard_sample01", "partnerOnboardingId": "partner-sample-001",
                **info}
    return {**STATUS_SAMPLE, "data": {**STATUS_SAMPLE["data"], "merchantInfo": merchant}}


@pytest.mark.parametrize(("answer", "reported", "status"), [
    # docs/gateway-facts.md A3, openapi status set
    (STATUS_SAMPLE, "PENDING_REVIEW", "PENDING_REVIEW"),
    # get-status@2eb3fae and the lifecycle page: UNDER_REVIEW, in a merchantStatus field
    (with_info(merchantStatus="UNDER_REVIEW"), "UNDER_REVIEW", "PENDING_REVIEW"),
    # quickstart: VERIFICATION_COMPLETE
    (with_info(onboardingStatus="VERIFICATION_COMPLETE"), "VERIFICATION_COMPLETE",
     "PENDING_REVIEW"),
    # webhook examples: ACCEPTED
    (with_info(onboardingStatus="ACCEPTED"), "ACCEPTED", "APPROVED"),
    # a name no source shows: read, kept, mapped to nothing
    (with_info(onboardingStatus="ON_HOLD"), "ON_HOLD", None),
])
def test_the_client_reads_the_status_variants(recorded_gateway, answer, reported, status):
    """Sources: docs/gateway-facts.md A3 (get-status@2eb3fae,
    lifecycle page, quickstart, webhook examples) and C "Status names in the wild"."""
    recorded_gateway["answer"] = answer
    client = OnboardingClient(recorded_gateway["url"], API_KEY, API_SECRET, retry=NO_RETRY)
    data = client.get_status("pg_onboard_sample01")
    assert data.merchantInfo.reported_status == reported
    assert data.merchantInfo.status == status
    checklist = data.merchantOnboardingCheckListStatus
    assert (checklist.vkyc, checklist.digiLocker) == ("PENDING_REVIEW", "COMPLETE")


@pytest.mark.parametrize("sample", WEBHOOK_SAMPLES, ids=lambda s: s["status"])
def test_webhook_samples_name_statuses_of_the_contracts_machine(sample):
    """Source: docs/gateway-facts.md A8 (webhook keys) with A3 "Webhook examples: UNDER_REVIEW,
    ACCEPTED" and C "Status names in the wild"."""
    expected = {"UNDER_REVIEW": "PENDING_REVIEW", "ACCEPTED": "APPROVED"}
    assert known_status(sample["onboarding_status"]) == expected[sample["onboarding_status"]]


def test_a_webhook_sample_is_received_by_the_portal(app, sandbox):
    """Source: docs/gateway-facts.md A8 (MERCHANT_STATUS_ACCEPTED), posted as the gateway would (the
    sandbox's digest added, as docs/gateway-contract.md says the sandbox does). An id the portal
    does not know is stored and answered 200, never a 500."""
    body = json.dumps(WEBHOOK_SAMPLES[1]).encode()
    answer = app.test_client().post("/webhooks/onboarding", data=body, headers={
        "Content-Type": "application/json", "x-gl-digest": hmac_digest(API_SECRET, body)})
    assert answer.status_code == 200
