"""The sandbox's config file refuses keys it does not know, naming each, so a typo is an error
instead of a setting silently left at its default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from portal.sandbox.__main__ import main
from portal.sandbox.common.config import ConfigError, config_from, load_config

GOOD = {"partners": [{"partnerId": "p1", "keys": [{"apiKey": "k1", "apiSecret": "s1"}]}],
        "reviewSeconds": 5}


def written(tmp_path: Path, data: dict) -> Path:
    """``data`` as a config file."""
    path = tmp_path / "sandbox.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_config_of_known_keys_loads(tmp_path):
    config = load_config(written(tmp_path, GOOD))
    assert (config.partners[0].keys[0].apiSecret, config.reviewSeconds) == ("s1", 5)


def test_a_misspelt_key_is_refused_by_name_wherever_it_is(tmp_path):
    typo = {"partners": [{"partnerId": "p1", "keys": [{"apiKey": "k1", "apiSecrt": "s1"}]}],
            "reviewSecond": 5}
    with pytest.raises(ConfigError) as refused:
        load_config(written(tmp_path, typo))
    message = str(refused.value)
    assert "unknown key reviewSecond" in message
    assert "unknown key partners[0].keys[0].apiSecrt" in message
    assert "partners[0].keys[0].apiSecret: Field required" in message


@pytest.mark.parametrize(("section", "named"), [
    ({"merchants": [{"mid": "m1", "keys": [], "subMerchant": ["m2"]}]},
     "unknown key merchants[0].subMerchant"),
    ({"faults": {"seed": 1, "fault": []}}, "unknown key faults.fault"),
    ({"faults": {"faults": [{"kind": "error", "time": 1}]}}, "unknown key faults.faults[0].time"),
])
def test_unknown_keys_in_merchants_and_faults_are_refused_too(tmp_path, section, named):
    with pytest.raises(ConfigError) as refused:
        load_config(written(tmp_path, section))
    assert str(refused.value).endswith(named)


def test_a_config_built_in_code_refuses_unknown_keys_too():
    with pytest.raises(ValidationError) as refused:
        config_from({"webhookRetrySecond": [1]})
    assert [e["loc"] for e in refused.value.errors()] == [("webhookRetrySecond",)]


def test_the_sandbox_will_not_start_on_a_misspelt_key(tmp_path, capsys):
    path = written(tmp_path, {**GOOD, "webhookURL": "http://127.0.0.1:5000/webhooks"})
    with pytest.raises(SystemExit) as stopped:
        main(["--config", str(path)])
    assert stopped.value.code == 2
    assert "unknown key webhookURL" in capsys.readouterr().err
