"""The app factory and configuration."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from dotenv import dotenv_values

from portal.app.devsetup import write_dev_config
from portal.app.factory import create_app
from portal.core.config import ConfigError, settings_from_env
from portal.sandbox.payments.auth import GatewayKey


def test_health_answers_with_security_headers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_production_without_secrets_names_every_missing_variable():
    with pytest.raises(ConfigError) as caught:
        create_app(settings_from_env({"PORTAL_ENV": "production"}))
    for name in ("SECRET_KEY", "GATEWAY_API_KEY", "GATEWAY_API_SECRET", "GATEWAY_ONBOARDING_URL",
                 "GATEWAY_PUBLIC_KEY_FILE", "GATEWAY_KEY_ID"):
        assert name in str(caught.value)


def test_development_tolerates_missing_secrets():
    settings = settings_from_env({"PORTAL_ENV": "development"})
    assert settings.check() is settings


def test_defaults_put_sqlite_and_uploads_under_instance():
    settings = settings_from_env({"PORTAL_ENV": "development"})
    assert settings.database_url.startswith("sqlite:////")
    assert settings.database_url.endswith("/instance/portal.db")
    assert settings.upload_folder.endswith("/instance/uploads")
    assert settings.upload_max_bytes == 5 * 1024 * 1024


def test_bad_number_is_a_config_error():
    with pytest.raises(ConfigError, match="not a number"):
        settings_from_env({"GATEWAY_READ_TIMEOUT": "soon"})


def test_payments_url_defaults_to_onboarding_url():
    settings = settings_from_env({"GATEWAY_ONBOARDING_URL": "https://gw.example/"})
    assert settings.payments_url == "https://gw.example"
    assert settings.verification_origin == "https://gw.example"


def test_dev_config_is_written_once_with_fresh_secrets(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert write_dev_config(first, 5000, 8100) is True
    assert write_dev_config(first, 5000, 8100) is False
    write_dev_config(second, 5000, 8100)
    env_a = dotenv_values(first / "portal.env")
    env_b = dotenv_values(second / "portal.env")
    assert env_a["SECRET_KEY"] != env_b["SECRET_KEY"]
    sandbox = json.loads((first / "sandbox.json").read_text())
    key = sandbox["partners"][0]["keys"][0]
    assert (key["apiKey"], key["apiSecret"]) == (env_a["GATEWAY_API_KEY"],
                                                 env_a["GATEWAY_API_SECRET"])
    settings = settings_from_env(env_a)
    assert settings.check() is settings
    assert settings.gateway_is_sandbox


def test_dev_config_names_the_sandbox_gateway_keys_id(tmp_path):
    """Payment bodies are JWE by default: make run writes the kid the sandbox gives its key."""
    write_dev_config(tmp_path, 5000, 8100)
    env = dotenv_values(tmp_path / "portal.env")
    sandbox = json.loads((tmp_path / "sandbox.json").read_text())
    assert env["GATEWAY_KEY_ID"] == GatewayKey(sandbox["gatewayPrivateKeyPem"]).kid
    assert not settings_from_env(env).gateway_plain_json


def test_an_older_dev_config_gains_the_gateway_key_id(tmp_path):
    write_dev_config(tmp_path, 5000, 8100)
    env_file = tmp_path / "portal.env"
    kid = dotenv_values(env_file)["GATEWAY_KEY_ID"]
    env_file.write_text("".join(line + "\n" for line in env_file.read_text().splitlines()
                                if not line.startswith("GATEWAY_KEY_ID=")))
    assert write_dev_config(tmp_path, 5000, 8100) is False
    assert dotenv_values(env_file)["GATEWAY_KEY_ID"] == kid


def test_make_run_gives_each_portal_port_its_own_mail_sink(tmp_path):
    write_dev_config(tmp_path, 5050, 8100, mail_port=8075)
    assert dotenv_values(tmp_path / "portal.env")["MAIL_PORT"] == "8075"
    root = Path(__file__).resolve().parents[2]
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    planned = {port: subprocess.run(  # noqa: S603 - make with fixed arguments
        [make, "-n", "run", f"PORTAL_PORT={port}"], cwd=root, capture_output=True, text=True,
        check=True, timeout=60).stdout for port in (5000, 5050)}
    assert "--mail-port 8025" in planned[5000] and "MAIL_SINK_PORT=8025" in planned[5000]
    assert "--mail-port 8075" in planned[5050] and "MAIL_SINK_PORT=8075" in planned[5050]
    script = (root / "scripts" / "run-dev.sh").read_text()
    assert 'export MAIL_PORT="$MAIL_SINK_PORT"' in script
