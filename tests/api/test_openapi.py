"""The OpenAPI 3.1 document: generated from the operations and their models, served with a
reference page, and schemathesis over every operation finding no 500 and no answer that breaks
it."""

from __future__ import annotations

import pytest
import schemathesis
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from portal.domain.api.scopes import Scope
from portal.features.api import routes  # noqa: F401  (every operation declared)
from portal.features.api.openapi import document
from portal.features.api.operations import OPERATIONS

schema = schemathesis.openapi.from_dict(document())
CHECKS = [schemathesis.checks.not_a_server_error, status_code_conformance,
          content_type_conformance, response_schema_conformance]


def test_the_document_is_served_and_names_every_operation(client):
    served = client.get("/api/v1/openapi.json").json
    assert served["openapi"] == "3.1.0"
    found = {(path, method.upper()) for path, item in served["paths"].items() for method in item}
    assert len(found) == len(OPERATIONS)
    create = served["paths"]["/api/v1/merchants"]["post"]
    body = served["components"]["schemas"]["CreateOnboardingRequest"]
    assert create["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/CreateOnboardingRequest")
    assert set(body["required"]) == {"externalOnboardingId", "panNumber"}
    assert {p["name"] for p in create["parameters"]} == {"Idempotency-Key"}


def test_the_reference_page_lists_every_operation_with_its_scope(client):
    page = BeautifulSoup(client.get("/api/v1/").data, "html.parser")
    sections = page.select("section.api-operation")
    assert len(sections) == len(OPERATIONS)
    assert page.find("a", href="/api/v1/openapi.json")
    assert not page.select("script[src^=http], link[href^=http]")  # nothing from a CDN
    text = page.get_text(" ")
    assert all(f"{op.method} /api/v1" in text and str(op.scope) in text for op in OPERATIONS)


@pytest.fixture
def unlimited_token(issue_key) -> str:
    """A key with every scope and no limit worth the name."""
    return issue_key(*Scope, per_minute=100_000)


@schema.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_answer_breaks_the_document(case, app, unlimited_token, approved_merchant):
    response = case.call(app=app, headers={"Authorization": f"Bearer {unlimited_token}"})
    case.validate_response(response, checks=CHECKS)
