"""Every log line of a full journey, at DEBUG, holds no secret, full PAN, account or card number,
and no token: steps 1-7, verification, a merchant link, the review and its webhook, the status
page, credentials, a hold paid on the hosted page, its callback and capture. And the request
logs, the app's own and gunicorn's started as ``make run`` starts it, hold no token, PAN or
customer's address from a URL's query (a search, its export, a link)."""

from __future__ import annotations

import html
import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import pytest
import requests
from flask import Flask

from portal.app.factory import create_app
from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding import scenarios
from portal.domain.onboarding.steps import STEPS
from tests.payments.support import APPROVING_CARD, act, pay, payment_row, post_hold, submit
from tests.support.accounts import TEST_PASSWORD, AuthActions
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.support.servers import gunicorn_portal, serve, sign_in
from tests.support.settings import with_payments
from tests.verification.support import backend_of, complete_on_sandbox_page, frame_src, token_of
from tests.wizard.support import onboard

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
    assert leaks_in(lines, forbidden) == {}


# ---------------------------------------------------------------- access logs

#: A merchant's PAN, as ops type it into the merchants search.
SEARCHED_PAN = "AAKCS4321Q"
#: A customer's address, as ops type it into the payments search (the URL escapes its @).
CUSTOMER = "victim.name+orders@example.com"
#: Every way the customer's address can be written in a URL: as typed, escaped once (the
#: search), escaped twice (the sign-in page's ``next``), and its local part alone.
CUSTOMER_FORMS = {"address": CUSTOMER, "escaped address": quote(CUSTOMER, safe=""),
                  "address escaped twice": quote(quote(CUSTOMER, safe=""), safe=""),
                  "local part": "victim.name", "escaped local part": "victim.name%2Borders"}
#: A payment link's token, the hosted page's x-gl-token and an invitation's token, as their
#: queries carry them (the log never judges whether they are valid).
QUERY_TOKENS = {"payment link token": "Xq3vT8pLm2Rk9WcY4bNs7HdE.aZ1",
                "x-gl-token": "eyJhbGci.c2lnbmVk", "invitation token": "eyJ1IjozfQ.Zk2yQw.mN8v"}


def searches_and_tokens(url: str, ops: requests.Session) -> None:
    """What ops and the public do that puts a secret in a URL: the payments search by a
    customer's address and its export (signed in, and signed out: the sign-in page's ``next``
    holds the search), a payment link, the hosted page's return, an invitation."""
    search = f"{url}/payments?{urlencode({'q': CUSTOMER})}"
    for path in (search, f"{url}/payments/export.csv?{urlencode({'q': CUSTOMER})}"):
        assert ops.get(path, headers={"Referer": search}, timeout=10).ok
    assert urlsplit(requests.get(search, timeout=10).url).path == "/login"
    for path in (f"/pay/1?token={QUERY_TOKENS['payment link token']}",
                 f"/payments/callback?x-gl-token={QUERY_TOKENS['x-gl-token']}",
                 f"/team/welcome?token={QUERY_TOKENS['invitation token']}"):
        requests.get(url + path, timeout=10)


def leaks_in(lines: list[str], forbidden: dict[str, str]) -> dict[str, list[str]]:
    """The lines holding each forbidden value, by what it is (empty: none leaked)."""
    return {what: [line for line in lines if value in line]
            for what, value in forbidden.items() if any(value in line for line in lines)}


def test_the_apps_request_log_holds_no_address_or_token(portal, captured):
    email = AuthActions(portal.app, portal.app.test_client()).create("ops")
    searches_and_tokens(portal.url, sign_in(portal.url, email, TEST_PASSWORD))
    requests_logged = [line for line in captured.lines if line.startswith(f"INFO {WERKZEUG}")]
    assert sum("GET /payments?q=" in line for line in requests_logged) == 2
    assert sum("GET /payments/export.csv?q=" in line for line in requests_logged) == 1
    assert leaks_in(captured.lines, {**CUSTOMER_FORMS, **QUERY_TOKENS}) == {}
    assert sum("?q=v***@example.com " in line for line in requests_logged) == 3, \
        "masked as the audit masks it"
    assert any("GET /login?next=/payments?q%3Dv***@example.com " in line
               for line in requests_logged)


def wait_for_lines(log: Path, done: Callable[[list[str]], bool]) -> list[str]:
    """The log's lines once ``done`` holds for them (gunicorn logs a request after answering)."""
    deadline = time.monotonic() + 15
    while True:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        if done(lines) or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def test_gunicorn_access_log_holds_no_token_pan_or_address(app, client, settings, tmp_path):
    email = AuthActions(app, client).create("ops")
    with app.app_context():
        merchant = Merchant(  # every step sent: its merchant link may be made
            external_onboarding_id="EXT-LOG-1", pan=SEARCHED_PAN, display_name="Logged Traders",
            onboarding_id="pg_onboard_log1",
            checklist={step.checklist_key: "COMPLETE" for step in STEPS if step.checklist_key})
        db.session.add(merchant)
        db.session.commit()
        _link, token = links.issue(settings.secret_key, merchant, Actor(email))
        merchant_id = merchant.id
    log = tmp_path / "portal.log"
    with gunicorn_portal(settings, log, "--workers", "1") as url:
        link = f"{url}/verify/{merchant_id}?token={token}"
        assert requests.get(link, headers={"Referer": link}, timeout=10).status_code == 200
        # signed out: sent to /login?next=%2Fmerchants%3Fq%3D<PAN>
        assert requests.get(f"{url}/merchants?q={SEARCHED_PAN}", timeout=10).ok
        ops = sign_in(url, email, TEST_PASSWORD)
        search = f"{url}/merchants?q={SEARCHED_PAN.lower()}"
        assert ops.get(search, headers={"Referer": search}, timeout=10).ok
        searches_and_tokens(url, ops)
        lines = wait_for_lines(log, lambda lines: any(
            '"GET /team/welcome?token=' in line for line in lines))

    requests_logged = [line for line in lines if '"GET /' in line]
    assert any(f'"GET /verify/{merchant_id}?token=' in line for line in requests_logged)
    assert any('"GET /login?next=' in line for line in requests_logged)
    assert sum('"GET /merchants?q=' in line for line in requests_logged) == 2
    assert sum('"GET /payments?q=' in line for line in requests_logged) == 2
    assert sum('"GET /payments/export.csv?q=' in line for line in requests_logged) == 1
    forbidden = {"merchant link token": token, "PAN": SEARCHED_PAN,
                 "PAN in lower case": SEARCHED_PAN.lower(), **CUSTOMER_FORMS, **QUERY_TOKENS}
    assert leaks_in(lines, forbidden) == {}
    assert sum("?q=v***@example.com " in line for line in requests_logged) == 3
