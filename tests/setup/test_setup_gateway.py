"""``flask setup gateway``: asks, checks in words, writes the env file the portal reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from dotenv import dotenv_values

from portal.app.unconfigured import unconfigured_app
from portal.core.config import ConfigError, settings_from_env
from portal.domain.golive.checks import DEFAULT_PARTNER_NAME


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, Path]:
    """The gateway's public key file, and a private key file to give by mistake."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public, private = tmp_path / "gateway.pem", tmp_path / "private.pem"
    public.write_bytes(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    private.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return public, private


def answers(public_key: Path) -> dict[str, str]:
    """A complete, good set of answers, by flag."""
    return {
        "--partner-mid": "uat-partner", "--api-key": "pk_uat_0123456789",
        "--api-secret": "uat-secret-0123456789abcdef", "--public-key-file": str(public_key),
        "--key-id": "gw-kid-1", "--onboarding-url": "https://api.onboard.uat.payglocal.in/",
        "--payments-url": "https://api.uat.payglocal.in",
        "--initiate-path": "/gl/v1/payments/initiate/paycollect",
        "--origin": "https://uat.dashboard.payglocal.in", "--webhook-sources": "203.0.113.0/24",
        "--portal-url": "https://onboarding.partner.example", "--mail-host": "smtp.partner.example",
        "--mail-port": "587", "--mail-security": "starttls", "--mail-username": "portal",
        "--mail-password": "mail password", "--mail-from": "Asha Portal <portal@asha.example>",
        "--partner-name": "Asha Payments",
    }


def setup(env_file: Path, flags: dict[str, str], input: str | None = None):
    """``flask setup gateway`` as the unconfigured portal runs it, writing ``env_file``."""
    app = unconfigured_app(ConfigError("Missing configuration: SECRET_KEY."))
    args = ["setup", "gateway", *(part for flag in flags.items() for part in flag)]
    return app.test_cli_runner().invoke(args=args, input=input,
                                        env={"PORTAL_ENV_FILE": str(env_file)})


def test_the_answers_are_written_where_the_portal_reads_them(tmp_path, keys):
    env_file = tmp_path / "etc" / "portal.env"
    result = setup(env_file, answers(keys[0]))
    assert result.exit_code == 0, result.output
    written = dotenv_values(env_file)
    settings = settings_from_env(written).check()  # production starts on it
    assert settings.env == "production" and not settings.gateway_is_sandbox
    assert (settings.partner_mid, settings.api_key, settings.gateway_key_id) == (
        "uat-partner", "pk_uat_0123456789", "gw-kid-1")
    assert settings.onboarding_url == "https://api.onboard.uat.payglocal.in"
    assert settings.gateway_public_key_file == str(keys[0])
    assert (settings.mail_from, settings.partner_name, settings.mail_password) == (
        "Asha Portal <portal@asha.example>", "Asha Payments", "mail password")
    assert settings.webhook_secrets == ()
    assert settings.secret_key and settings.kyc_encryption_keys and settings.pan_index_key
    assert env_file.stat().st_mode & 0o077 == 0
    assert "Onboarding webhook URL: https://onboarding.partner.example/webhooks/onboarding" \
        in result.output
    assert "Payment callback URL: https://onboarding.partner.example/payments/callback" \
        in result.output
    assert "(the gateway's CSP): https://onboarding.partner.example\n" in result.output
    assert "uat-secret" not in result.output


def test_running_it_again_keeps_the_secrets_and_the_other_lines(tmp_path, keys):
    env_file = tmp_path / "portal.env"
    env_file.write_text("# ours\nDATABASE_URL=postgresql+psycopg://db/portal\n"
                        "GATEWAY_IS_SANDBOX=true\n", encoding="utf-8")
    assert setup(env_file, answers(keys[0])).exit_code == 0
    first = dotenv_values(env_file)
    assert setup(env_file, {**answers(keys[0]), "--key-id": "gw-kid-2"}).exit_code == 0
    second = dotenv_values(env_file)
    assert second["SECRET_KEY"] == first["SECRET_KEY"]
    assert second["GATEWAY_KEY_ID"] == "gw-kid-2"
    assert second["DATABASE_URL"] == "postgresql+psycopg://db/portal"
    assert second["GATEWAY_IS_SANDBOX"] == "false"
    assert env_file.read_text(encoding="utf-8").startswith("# ours\n")
    assert env_file.read_text(encoding="utf-8").count("GATEWAY_KEY_ID=") == 1


@pytest.mark.parametrize(("flag", "bad", "words"), [
    ("--partner-mid", "uat partner!", "The partner MID is 2 to 64 letters, digits, - and _"),
    ("--api-key", "pk uat key", "The API key is one word of 8 to 256 characters"),
    ("--api-secret", "short", "The API secret is one word of 16 to 256 characters"),
    ("--public-key-file", "/nowhere/gateway.pem", "There is no readable file at"),
    ("--onboarding-url", "http://api.onboard.uat.payglocal.in", "Use https://"),
    ("--payments-url", "api.uat.payglocal.in", "Give a whole address such as"),
    ("--initiate-path", "gl/v1/payments", "Give a path that starts with /"),
    ("--origin", "https://uat.dashboard.payglocal.in/iframe", "with no path"),
    ("--portal-url", "http://onboarding.partner.example", "Use https://"),
    ("--mail-host", "smtp://mail", "Give the mail server's host name alone"),
    ("--mail-port", "99999", "Give the port as a number from 1 to 65535"),
    ("--mail-security", "tls", "Choose none, starttls"),
    ("--mail-from", "portal at asha", "Give the sender's address"),
    ("--partner-name", DEFAULT_PARTNER_NAME, "Give the name merchants know you by"),
])
def test_each_bad_value_is_refused_in_words_and_nothing_is_written(tmp_path, keys, flag, bad,
                                                                   words):
    env_file = tmp_path / "portal.env"
    result = setup(env_file, {**answers(keys[0]), flag: bad})
    assert result.exit_code == 2
    assert f"Invalid value for '{flag}': " in result.output
    assert words in result.output
    assert not env_file.exists()


def test_a_private_key_is_refused_for_the_gateways_public_key(tmp_path, keys):
    result = setup(tmp_path / "portal.env", {**answers(keys[0]), "--public-key-file": str(keys[1])})
    assert result.exit_code == 2
    assert "This file holds a private key: give the gateway's public key" in result.output


def test_a_bad_combination_is_refused_with_the_configurations_words(tmp_path, keys):
    result = setup(tmp_path / "portal.env", {**answers(keys[0]), "--webhook-sources": "anywhere"})
    assert result.exit_code == 1
    assert "Nothing was written:" in result.output and "GATEWAY_WEBHOOK_SOURCES" in result.output
    assert not (tmp_path / "portal.env").exists()


def test_asked_in_turn_a_bad_answer_is_asked_again_with_its_reason(tmp_path, keys):
    flags = answers(keys[0])
    del flags["--partner-mid"], flags["--api-key"]
    typed = "bad mid!\nuat-partner\npk_uat_0123456789\n"
    result = setup(tmp_path / "portal.env", flags, input=typed)
    assert result.exit_code == 0, result.output
    assert "The partner's MID at the gateway" in result.output
    assert "Error: The partner MID is 2 to 64 letters" in result.output
    assert dotenv_values(tmp_path / "portal.env")["GATEWAY_PARTNER_MID"] == "uat-partner"


def test_the_questions_default_to_what_the_file_holds(tmp_path, keys):
    env_file = tmp_path / "portal.env"
    assert setup(env_file, answers(keys[0])).exit_code == 0
    flags = answers(keys[0])
    del flags["--mail-host"]
    result = setup(env_file, flags, input="\n")
    assert result.exit_code == 0, result.output
    assert "SMTP server [smtp.partner.example]:" in result.output
    assert dotenv_values(env_file)["MAIL_HOST"] == "smtp.partner.example"
