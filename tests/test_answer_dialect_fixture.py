"""The suite's ``answer_dialect`` fixture (tests/support/sandbox.py): a portal test that asks for
it runs once per dialect against the suite's sandbox speaking it; one that does not gets the
sandbox's config (the contract's, unless SANDBOX_ANSWER_DIALECT says otherwise)."""

from __future__ import annotations

import requests

from tests.support.sandbox import suite_dialect


def test_the_suites_sandbox_speaks_the_dialect_asked_for(request, sandbox, answer_dialect):
    assert request.node.callspec.id == answer_dialect
    assert sandbox.state.config.answerDialect == answer_dialect
    unknown = requests.get(sandbox.url + "/gl/v1/payments/gl_o-x/status", timeout=5)
    assert unknown.status_code == 401  # unsigned: refused in either dialect's envelope
    assert ("errorDetails" in unknown.json()) == (answer_dialect == "contract")


def test_a_test_asking_for_no_dialect_gets_the_configs(sandbox):
    expected = suite_dialect().get("answerDialect", "contract")
    assert sandbox.state.config.answerDialect == expected
