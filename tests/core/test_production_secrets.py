"""Production refuses secrets with less than 32 bytes of randomness and a missing gateway key
file, naming the variable (never the value); development refuses to start without the KYC
keys instead of answering 500 at the first page that needs them."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from portal.app.factory import create_app
from portal.core.config import ConfigError, Settings, settings_from_env
from portal.core.config_errors import random_bytes
from tests.support.production import production_environment

#: A Fernet key, fixed so every xdist worker collects the same parameters.
FERNET_KEY = "r-aet8H93Q-x8ewjFoRF2SfcXwr_jOt9np-lswCCwVg="


@pytest.fixture
def complete(tmp_path: Path) -> dict[str, str]:
    """A production environment that starts."""
    return production_environment(tmp_path)


def refusal(environ: dict[str, str]) -> str:
    """The one line production's check answers ``environ`` with."""
    with pytest.raises(ConfigError) as caught:
        settings_from_env(environ).check()
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_secrets_as_make_run_and_the_readme_make_them_start(complete):
    assert settings_from_env(complete).check().env == "production"
    assert settings_from_env({**complete, "SECRET_KEY": secrets.token_urlsafe(32),
                              "METRICS_TOKEN": secrets.token_hex(32),
                              "CREDENTIALS_KEY": ",".join(Fernet.generate_key().decode()
                                                          for _ in range(2))}).check()


@pytest.mark.parametrize(("variable", "value", "words"), [
    ("SECRET_KEY", "x", "is too short to be a secret"),
    ("SECRET_KEY", "correct horse battery staple", "is too short to be a secret"),
    ("SECRET_KEY", "k" * 80, "does not look random"),
    ("SECRET_KEY", "ab" * 40, "does not look random"),
    ("PAN_INDEX_KEY", "a", "is too short to be a secret"),
    ("PAN_INDEX_KEY", "0123456789abcdef" * 3 + "0123456789abcd", "is too short"),  # 62 digits
    ("KYC_ENCRYPTION_KEYS", "Z" * 43 + "=", "does not look random"),  # Fernet takes it
    ("CREDENTIALS_KEY", FERNET_KEY + ",short", "is too short"),
    ("METRICS_TOKEN", "metrics-token-7c1e", "is too short to be a secret"),
])
def test_a_weak_secret_is_refused_by_name_never_by_value(complete, variable, value, words):
    line = refusal({**complete, variable: value})
    assert line.startswith(f"{variable} {words}")
    assert len(value) < 3 or value not in line
    assert "short," not in line


def test_every_weak_secret_is_named_in_the_one_line(complete):
    line = refusal({**complete, "SECRET_KEY": "x", "PAN_INDEX_KEY": "a"})
    assert line.startswith("SECRET_KEY is too short") and " PAN_INDEX_KEY is too short" in line


def test_a_missing_gateway_key_file_is_named(complete, tmp_path):
    del complete["GATEWAY_PUBLIC_KEY_FILE"]
    assert refusal(complete).startswith("Missing configuration: GATEWAY_PUBLIC_KEY_FILE.")
    absent = tmp_path / "no-such.pem"
    assert refusal({**complete, "GATEWAY_PUBLIC_KEY_FILE": str(absent)}) == (
        f"GATEWAY_PUBLIC_KEY_FILE names {absent}, which is not a file the portal can read.")


@pytest.mark.parametrize(("value", "judged"), [
    ("0" * 64, 32.0),  # hex digits: 4 bits each
    ("g" * 64, 48.0),  # anything else: 6 bits each, base64's
    ("Z" * 43 + "=", 32.25),  # padding is not counted
    (" " + "f" * 10 + " ", 5.0),
])
def test_randomness_is_judged_by_length_and_alphabet(value, judged):
    assert random_bytes(value) == judged


@pytest.mark.parametrize(("missing", "variable"), [
    ("kyc_encryption_keys", "KYC_ENCRYPTION_KEYS"),
    ("pan_index_key", "PAN_INDEX_KEY"),
])
@pytest.mark.parametrize("env", ["development", "testing"])
def test_development_refuses_to_start_without_the_kyc_keys(settings: Settings, missing,
                                                            variable, env):
    with pytest.raises(ConfigError) as caught:
        create_app(settings.with_changes(env=env, **{missing: ""}))
    assert str(caught.value).startswith(f"{variable} is not set")
