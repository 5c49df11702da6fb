"""The ``answerDialect`` setting: the contract's by default, the docs' by config, back to the
config's at every reset; and the ``answer_dialect`` fixture that runs a test in each."""

from __future__ import annotations

import json

import pytest

from portal.sandbox.common.config import ConfigError, config_from, load_config
from tests.sandbox.payloads import bank
from tests.sandbox.raw_calls import raw
from tests.support.sandbox import DIALECTS, speak


def test_the_contract_is_the_default_and_the_docs_a_config_value(tmp_path):
    assert config_from({}).answerDialect == "contract"
    path = tmp_path / "sandbox.json"
    path.write_text(json.dumps({"answerDialect": "docs"}), encoding="utf-8")
    assert load_config(path).answerDialect == "docs"


def test_an_unknown_dialect_is_refused_by_name(tmp_path):
    path = tmp_path / "sandbox.json"
    path.write_text(json.dumps({"answerDialect": "doc"}), encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert "answerDialect: Input should be 'contract' or 'docs'" in str(refused.value)


def test_a_reset_puts_the_configs_dialect_back(sandbox_server, partner, onboarding_id):
    speak(sandbox_server, "docs")
    assert "merchantInfo" not in raw(partner, "update_bank_details", bank(),
                                     onboardingId=onboarding_id).json()["data"]
    sandbox_server.reset()
    assert sandbox_server.state.config.answerDialect == "contract"
    created = partner.create_onboarding({"externalOnboardingId": "after-reset",
                                         "panNumber": "ABCCE1234F"})
    data = partner.update_bank_details(created.onboarding_id, bank()).record
    assert data.merchantInfo.settlementDetails.pennyDropStatus == "VERIFIED"


def test_the_fixture_runs_the_test_once_per_dialect(request, sandbox_server, answer_dialect):
    assert sandbox_server.state.config.answerDialect == answer_dialect
    assert request.node.callspec.id == answer_dialect
    assert DIALECTS == ("contract", "docs")


def test_a_test_that_asks_for_no_dialect_gets_the_configs(sandbox_server):
    assert sandbox_server.state.config.answerDialect == "contract"
