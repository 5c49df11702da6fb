"""A portal switched to a second sandbox acting as the gateway's UAT, only through ``flask
setup gateway`` and the Go-live checklist page, then a merchant's first step sent there."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
import requests
from dotenv import dotenv_values
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select

from portal.app.factory import create_app
from portal.app.unconfigured import unconfigured_app
from portal.core.config import ConfigError, settings_from_env
from portal.core.db import db
from portal.core.mail.sink import MailSink
from portal.core.models.merchant import Merchant
from portal.core.models.user import Role
from portal.domain.onboarding import scenarios
from portal.domain.users.accounts import create_user
from portal.gateway.payments.auth import KID_HEADER
from portal.sandbox.payments.routes import GATEWAY_KEY_PATH
from tests.browser.support import AXE, TIMEOUT_MS, Axe, log_in, screenshot
from tests.support.accounts import TEST_PASSWORD, enrol_authenticator
from tests.support.sandbox import RunningSandbox, serve_sandbox
from tests.support.servers import serve

pytestmark = pytest.mark.browser

UAT_PARTNER = "uat-partner"
UAT_KEY = "pk_uat_7f3a9c21d0"
UAT_SECRET = "uat-secret-5b8e2f71c4a9d03e"


class LaterApp:
    """A WSGI app served before it is built: the portal's address is needed to set it up."""

    app: Callable | None = None

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        """Hand the request to the app once it is built."""
        assert self.app is not None
        return self.app(environ, start_response)


@pytest.fixture
def uat() -> Iterator[RunningSandbox]:
    """A second sandbox with its own partner and key, on another origin: the "UAT" gateway."""
    config = {"partners": [{"partnerId": UAT_PARTNER, "keys": [
        {"apiKey": UAT_KEY, "apiSecret": UAT_SECRET, "active": True}]}]}
    with serve_sandbox(config, host="localhost") as running:
        yield running


def set_up(env_file: Path, uat: RunningSandbox, portal: str, sink: MailSink) -> str:
    """``flask setup gateway`` with every answer a flag, as a deployment script runs it."""
    key = requests.get(uat.url + GATEWAY_KEY_PATH, timeout=5)
    (env_file.parent / "uat-gateway.pem").write_text(key.text, encoding="utf-8")
    flags = {
        "--partner-mid": UAT_PARTNER, "--api-key": UAT_KEY, "--api-secret": UAT_SECRET,
        "--public-key-file": str(env_file.parent / "uat-gateway.pem"),
        "--key-id": key.headers[KID_HEADER], "--onboarding-url": uat.url,
        "--payments-url": uat.url, "--initiate-path": "/gl/v1/payments/initiate/paycollect",
        "--origin": uat.url, "--webhook-sources": "", "--portal-url": portal,
        "--mail-host": sink.host, "--mail-port": str(sink.port), "--mail-security": "none",
        "--mail-username": "", "--mail-password": "", "--mail-from": "Asha <portal@asha.example>",
        "--partner-name": "Asha Payments"}
    runner = unconfigured_app(ConfigError("Missing configuration.")).test_cli_runner()
    result = runner.invoke(args=["setup", "gateway", *(x for pair in flags.items() for x in pair)],
                           env={"PORTAL_ENV_FILE": str(env_file)})
    assert result.exit_code == 0, result.output
    return result.output


def test_a_portal_goes_to_uat_through_setup_and_the_checklist(
        chromium: Browser, uat: RunningSandbox, sandbox: RunningSandbox, migrated_template: Path,
        tmp_path: Path, axe_source: str) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not vendored")
    shutil.copy(migrated_template, tmp_path / "portal.db")
    env_file = tmp_path / "portal.env"
    env_file.write_text(f"DATABASE_URL=sqlite:///{tmp_path / 'portal.db'}\n"
                        f"UPLOAD_FOLDER={tmp_path / 'uploads'}\n", encoding="utf-8")
    later = LaterApp()
    with MailSink(tmp_path / "mail") as sink, serve(later) as portal:
        printed = set_up(env_file, uat, portal, sink)
        assert f"Onboarding webhook URL: {portal}/webhooks/onboarding" in printed
        settings = settings_from_env(dotenv_values(env_file))  # what the portal reads
        assert settings.env == "production" and not settings.gateway_is_sandbox
        app = create_app(settings)
        app.config["SESSION_COOKIE_SECURE"] = False  # plain http on loopback
        with app.app_context():
            create_user("admin@asha.example", TEST_PASSWORD, Role.ADMIN)
            create_user("ops@asha.example", TEST_PASSWORD, Role.OPS)
            db.session.commit()
        enrol_authenticator(app, "admin@asha.example")
        later.app = app
        context = chromium.new_context(base_url=portal)
        context.set_default_timeout(TIMEOUT_MS)
        try:
            page = context.new_page()
            axe = Axe(axe_source, portal)
            checklist(page, app, axe)
            assert sink.messages()[0]["To"] == "admin@asha.example"
            context.clear_cookies()
            first_step(page, axe)
        finally:
            context.close()
    with app.app_context():
        merchant = db.session.scalars(select(Merchant)).one()
    record = uat.backend.get_status(UAT_PARTNER, merchant.onboarding_id)
    assert record  # at the "UAT" gateway, under its partner
    assert sandbox.backend.snapshot()["records"] == []  # and not at the suite's sandbox


def _states(page: Page) -> dict[str, str]:
    return page.locator("li.golive-check").evaluate_all(
        "(items) => Object.fromEntries(items.map(i => [i.dataset.check, i.dataset.passed]))")


def checklist(page: Page, app, axe: Axe) -> None:
    """The admin runs the checks, registers the webhook from the page and runs them again."""
    log_in(page, "admin@asha.example", app=app)
    page.goto("/admin/")
    page.get_by_role("link", name="Go-live checklist").click()
    expect(page.locator(".golive-not-run")).to_have_text("Not run yet.")
    axe.check(page)
    page.get_by_role("button", name="Run the checks").click()
    assert _states(page) == {"gateway": "yes", "smtp": "yes", "https": "no", "webhook": "no",
                             "partner": "yes"}
    expect(page.locator('[data-check="https"]')).to_contain_text(
        "Put a TLS-terminating proxy in front")
    axe.check(page)
    screenshot(page, "go-live-checklist-to-do")
    page.get_by_role("button", name="Register the webhook").click()
    expect(page.get_by_text("The gateway now sends onboarding events to")).to_be_visible()
    page.get_by_role("button", name="Run the checks").click()
    assert _states(page)["webhook"] == "yes"
    screenshot(page, "go-live-checklist-webhook-registered")
    page.get_by_role("button", name="Sign out").click()


def first_step(page: Page, axe: Axe) -> None:
    """Ops starts a merchant by hand (no scenario picker on a real gateway) and sends step 1."""
    log_in(page, "ops@asha.example")
    page.goto("/merchants/new")
    expect(page.get_by_label("Scenario", exact=True)).to_have_count(0)
    page.get_by_label("Merchant name").fill("Marine Drive Traders")
    page.get_by_label("Business PAN").fill(scenarios.company_pan())
    page.locator("form.step-form").get_by_role("button", name="Save and send").click()
    page.wait_for_load_state()
    expect(page.locator(".stepper__step[data-step='create']")).to_have_attribute(
        "data-state", "sent")
    axe.check(page)
