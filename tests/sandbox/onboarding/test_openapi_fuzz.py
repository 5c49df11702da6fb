"""Fuzz every onboarding operation from the sandbox's own OpenAPI document (schemathesis).

Each generated request, valid or not, is signed like a partner's; the sandbox must never answer
5xx and every answer must match the document (status, content type and body schema). Negative
cases must be refused.
"""

from __future__ import annotations

import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case, GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.parameters import ParameterLocation

from portal.gateway.onboarding.hmac import HmacAuth
from portal.sandbox.onboarding.openapi import onboarding_openapi
from tests.sandbox.support import KEY, SECRET

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


# The document the sandbox serves at /openapi.json (test_sandbox_controls loads it from there);
# built in-process so the tests can be generated at import time, then sent over loopback.
schema = schemathesis.openapi.from_dict(onboarding_openapi())


def partner_auth(case: Case) -> requests.auth.AuthBase | None:
    """Sign like a partner, unless schemathesis meant the headers (the credentials) to be wrong.

    A case whose headers are negative drops or garbles x-gl-auth / x-gl-digest; signing it
    would undo that, so it is sent as generated and the sandbox must refuse it.
    """
    headers = case.meta.components.get(ParameterLocation.HEADER) if case.meta else None
    if headers is not None and headers.mode is GenerationMode.NEGATIVE:
        return None
    return HmacAuth(KEY, SECRET)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_per_the_document(case, sandbox_server, onboarding_id):
    if "onboardingId" in (case.path_parameters or {}):
        # aim at a real record of this partner, so bodies reach the backend's own checks
        case.path_parameters["onboardingId"] = onboarding_id
    case.call_and_validate(base_url=sandbox_server.url, auth=partner_auth(case),
                           checks=CHECKS)
