"""``flask gateway webhooks register|list|delete`` against the sandbox on loopback, and the
``make run`` wiring: the dev config names no webhookUrl, the script registers through the API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dotenv import dotenv_values
from sqlalchemy import select

from portal.app.devsetup import write_dev_config
from portal.app.factory import create_app
from portal.core.config import settings_from_env
from portal.core.config_fields import ROOT
from portal.core.db import db
from portal.core.models.webhook_event import WebhookEvent
from portal.gateway.onboarding.client import OnboardingClient
from portal.sandbox.app import create_sandbox_app, state_of
from portal.sandbox.common.config import load_config
from tests.sandbox.payloads import create_body, fill_every_step
from tests.support.servers import serve
from tests.support.settings import API_KEY, API_SECRET, PARTNER_ID

HOOK = "https://portal.example/webhooks/onboarding"


@pytest.fixture
def settings(settings):
    """The suite's settings with the partner's MID set (GATEWAY_PARTNER_MID)."""
    return settings.with_changes(partner_mid=PARTNER_ID)


def _webhooks(sandbox) -> list[tuple[str, str]]:
    hooks = state_of_backend(sandbox).webhooks.registered(PARTNER_ID)
    return [(hook.webhookId, hook.webhookUrl) for hook in hooks]


def state_of_backend(sandbox):
    """The sandbox's onboarding backend."""
    return sandbox.state.onboarding


def test_register_list_delete(runner, sandbox):
    registered = runner.invoke(args=["gateway", "webhooks", "register", HOOK])
    assert registered.exit_code == 0, registered.output
    [(webhook_id, url)] = _webhooks(sandbox)
    assert url == HOOK
    assert registered.output.strip() == f"Registered {webhook_id}: {HOOK}"

    listed = runner.invoke(args=["gateway", "webhooks", "list"])
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [f"{webhook_id}\t{HOOK}"]

    deleted = runner.invoke(args=["gateway", "webhooks", "delete", webhook_id])
    assert deleted.exit_code == 0, deleted.output
    assert _webhooks(sandbox) == []
    assert runner.invoke(args=["gateway", "webhooks", "list"]).output.strip() == (
        "No webhooks are registered.")


def test_mid_option_overrides_the_setting(runner, sandbox):
    result = runner.invoke(args=["gateway", "webhooks", "list", "--mid", "someone-else"])
    assert result.exit_code == 1
    assert "The gateway call failed" in result.output and "403" in result.output


def test_without_a_mid_the_command_says_what_to_set(app, sandbox):
    app.extensions["portal_settings"] = app.extensions["portal_settings"].with_changes(
        partner_mid="")
    result = app.test_cli_runner().invoke(args=["gateway", "webhooks", "list"])
    assert result.exit_code == 2
    assert "GATEWAY_PARTNER_MID" in result.output


def test_a_refused_url_names_the_field(runner, sandbox):
    result = runner.invoke(args=["gateway", "webhooks", "register", "http://portal.example/x"])
    assert result.exit_code == 1
    assert "webhookUrl: Use an https URL" in result.output
    assert _webhooks(sandbox) == []


def test_deleting_an_unknown_id_fails(runner, sandbox):
    result = runner.invoke(args=["gateway", "webhooks", "delete", "wh_nothing"])
    assert result.exit_code == 1
    assert "404" in result.output


def test_events_reach_the_portal_registered_through_the_command(app, runner, sandbox):
    """The sandbox's webhookUrl stays unset: only the registration sends the event."""
    assert sandbox.state.config.webhookUrl is None
    with serve(app) as portal_url:
        result = runner.invoke(args=["gateway", "webhooks", "register",
                                     f"{portal_url}/webhooks/onboarding"])
        assert result.exit_code == 0, result.output
        partner = OnboardingClient(sandbox.url, API_KEY, API_SECRET)
        onboarding_id = partner.create_onboarding(create_body()).onboarding_id
        fill_every_step(partner, onboarding_id)
        backend = state_of_backend(sandbox)
        backend.acknowledge_tnc(onboarding_id)
        backend.tick()
    assert [(d.outcome, d.status_code) for d in backend.webhooks.deliveries()] == [
        ("delivered", 200)]
    with app.app_context():
        stored = db.session.scalars(select(WebhookEvent.onboarding_id)).all()
    assert stored == [onboarding_id]


def test_make_run_registers_the_webhook_through_the_api(tmp_path: Path, database_url: str):
    """The dev config gives the sandbox no webhookUrl; run-dev.sh's command registers the
    portal with the sandbox started from that config, under the dev GATEWAY_PARTNER_MID."""
    write_dev_config(tmp_path, 5000, 8100)
    sandbox_config = load_config(tmp_path / "sandbox.json")
    assert sandbox_config.webhookUrl is None
    script = (ROOT / "scripts" / "run-dev.sh").read_text(encoding="utf-8")
    assert "gateway webhooks register" in script
    assert '"http://127.0.0.1:$PORTAL_PORT/webhooks/onboarding"' in script
    sandbox_app = create_sandbox_app(sandbox_config)
    with serve(sandbox_app) as sandbox_url:
        env = {**dotenv_values(tmp_path / "portal.env"), "GATEWAY_ONBOARDING_URL": sandbox_url,
               "GATEWAY_PAYMENTS_URL": sandbox_url, "DATABASE_URL": database_url}
        portal = create_app(settings_from_env(env))
        hook = "http://127.0.0.1:5000/webhooks/onboarding"
        result = portal.test_cli_runner().invoke(args=["gateway", "webhooks", "register", hook])
        assert result.exit_code == 0, result.output
    partner_id = json.loads((tmp_path / "sandbox.json").read_text())["partners"][0]["partnerId"]
    hooks = state_of(sandbox_app).onboarding.webhooks.registered(partner_id)
    assert [h.webhookUrl for h in hooks] == [hook]
