"""Every log line of a full journey, at DEBUG, holds no secret, full PAN, account or card number,
and no token: steps 1-7, verification, a merchant link, the review and its webhook, the status
page, credentials, a hold paid on the hosted page, its callback and capture."""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from flask import Flask

from portal.config import Settings
from portal.factory import create_app
from portal.onboarding import scenarios
from tests.conftest import AuthActions, with_payments
from tests.payments_portal.conftest import APPROVING_CARD, act, pay, payment_row, post_hold, submit
from tests.servers import serve
from tests.verification.conftest import (
    backend_of,
    complete_on_sandbox_page,
    frame_src,
    stored,
    token_of,
)
from tests.wizard.browser import Browser
from tests.wizard.conftest import onboard

#: The request log of the loopback servers (portal and sandbox).
WERKZEUG = "werkzeug"


class Capture(logging.Handler):
    """Keeps every record as the line a handler of the portal would write."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Format the record (exception text included) and keep it."""
        self.lines.append(self.format(record))


@pytest.fixture
def captured() -> Iterator[Capture]:
    """A DEBUG handler on the root logger, with everything (werkzeug too) at DEBUG."""
    capture = Capture()
    root, werkzeug = logging.getLogger(), logging.getLogger(WERKZEUG)
    levels = root.level, werkzeug.level
    root.addHandler(capture)
    root.setLevel(logging.DEBUG)
    werkzeug.setLevel(logging.DEBUG)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.setLevel(levels[0])
        werkzeug.setLevel(levels[1])


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings plus payments: a credentials key and the sandbox's gateway key."""
    return with_payments(settings, sandbox, tmp_path)


@dataclass(frozen=True)
class Served:
    """The portal app and where it listens."""

    app: Flask
    url: str


@pytest.fixture
def portal(captured: Capture, settings: Settings, sandbox) -> Iterator[Served]:
    """The portal built after the capture is in place (so it gets the app's log redaction,
    like every handler of the root logger), served on loopback; the sandbox's webhooks go
    to it."""
    app = create_app(settings)
    app.config["WTF_CSRF_ENABLED"] = False
    with serve(app) as url:
        sandbox.state.config.webhookUrl = f"{url}/webhooks/onboarding"
        yield Served(app, url)


def query_value(url: str, name: str) -> str:
    """One query parameter of ``url``."""
    return parse_qs(urlsplit(url).query)[name][0]


def test_a_full_journey_logs_no_secret_number_or_token(portal, captured, sandbox, settings):
    logged_app = portal.app
    client = logged_app.test_client()
    AuthActions(logged_app, client).login("admin")
    browser = Browser(client)
    merchant_id = onboard(browser, logged_app)
    merchant = stored(logged_app, merchant_id)
    assert merchant.status == "PENDING_VERIFICATION"

    session_page = client.get(f"/merchants/{merchant_id}/verification/session")
    redirect_link = frame_src(session_page.data)
    issued = client.post(f"/merchants/{merchant_id}/verification/links", follow_redirects=True)
    found = re.search(r"https?://[^\s<\"]+/verify/[^\s<\"]+", issued.get_data(as_text=True))
    assert found is not None, "no merchant link shown"
    merchant_link = html.unescape(found.group())
    link = urlsplit(merchant_link)
    opened = requests.get(f"{portal.url}{link.path}?{link.query}", timeout=5)  # access-logged
    assert opened.status_code == 200
    complete_on_sandbox_page(redirect_link)
    assert client.post(f"/merchants/{merchant_id}/verification/confirm").json["confirmed"]
    backend_of(sandbox).tick()  # the review, then its webhook to the served portal
    assert stored(logged_app, merchant_id).status == "APPROVED"
    assert client.get(f"/merchants/{merchant_id}/status").status_code == 200

    submit(browser, browser.get(f"/merchants/{merchant_id}/payments/credentials"),
           "form.credentials-form")
    hold = post_hold(browser, merchant_id)
    assert hold.status_code == 302
    returned = pay(hold.headers["Location"], APPROVING_CARD)
    client.post(returned.path, data={"x-gl-token": returned.token})
    payment = payment_row(logged_app, 1)
    assert payment.status == "AUTHORIZED"
    act(browser, payment.id, "capture")
    assert payment_row(logged_app, 1).status == "SENT_FOR_CAPTURE"

    forbidden = {
        "API secret": settings.api_secret,
        "API key": settings.api_key,
        "SECRET_KEY": settings.secret_key,
        "CREDENTIALS_KEY": settings.credentials_key,
        "company PAN": merchant.pan,
        **{f"owner PAN {pan}": pan for _d, _n, pan, _p in scenarios.OWNERS},
        "bank account number": scenarios.VERIFIED_BANK[0],
        "card number": APPROVING_CARD,
        "verification redirect token": token_of(redirect_link),
        "merchant link token": query_value(merchant_link, "token"),
        "hosted page x-gl-token": query_value(hold.headers["Location"], "x-gl-token"),
        "statusUrl x-gl-token": query_value(payment.status_url or "", "x-gl-token"),
        "callback x-gl-token": returned.token,
    }
    lines = captured.lines
    assert any("/onboard" in line for line in lines)  # the capture saw the gateway calls
    assert any(line.startswith("DEBUG") for line in lines)
    leaks = {what: [line for line in lines if value in line]
             for what, value in forbidden.items() if any(value in line for line in lines)}
    assert leaks == {}
