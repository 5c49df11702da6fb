"""Hardening: security headers on every GET route (real rows, an admin signed in), ``no-store`` on
every page over HTTP, HSTS in production, forwarded headers believed only from trusted proxies
(under gunicorn), and error pages (500, 404, 405, 413; HTML and JSON) that reveal no traceback,
exception or config value."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from flask import Flask
from sqlalchemy import select
from werkzeug.test import TestResponse

from portal.app.factory import create_app
from portal.core.config import Settings, origin_of
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.steps import STEPS
from portal.web.auth.access import public
from portal.web.security_headers import STRICT_TRANSPORT_SECURITY
from tests.support.accounts import TEST_PASSWORD, AuthActions, current_code
from tests.support.production import production_settings
from tests.support.routes import (
    CONFIRMATION_ADDRESS,
    STATIC_FILES,
    get_urls,
    headers_for,
    opened,
    seed_rows,
)
from tests.support.servers import csrf_token, gunicorn_portal, page_of, serve, sign_in

#: Referrer policies that never send a portal path to another origin.
SAFE_REFERRER_POLICIES = {"no-referrer", "same-origin", "strict-origin",
                          "strict-origin-when-cross-origin"}
#: The forced exception's message: it must never reach the client.
BOOM = "kaboom in the ledger: hunter2"
#: Endpoints whose page embeds the gateway's verification page in an iframe.
FRAMING = {"verification.session", "verification.merchant_page"}


def csp(response: TestResponse) -> dict[str, str]:
    """The response's Content-Security-Policy as directive -> value."""
    header = response.headers.get("Content-Security-Policy", "")
    directives = (part.strip().partition(" ") for part in header.split(";") if part.strip())
    return {name: value for name, _, value in directives}


def assert_hardened(response: TestResponse, frames: str = "'none'") -> None:
    """CSP (frames as given, never framed itself), nosniff and a safe Referrer-Policy."""
    policy = csp(response)
    assert policy.get("frame-ancestors") == "'none'", policy
    assert policy.get("frame-src") == frames, policy
    assert policy.get("script-src") == "'self'", policy
    assert policy.get("object-src") == "'none'", policy
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy") in SAFE_REFERRER_POLICIES


# ---------------------------------------------------------------- every GET route


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The suite's settings, naming the address whose link confirms the seeded new admin (so
    its page is a live one)."""
    return settings.with_changes(admin_confirmation_email=CONFIRMATION_ADDRESS)


@pytest.fixture
def real_ids(app: Flask, client, auth, settings: Settings) -> dict[str, Any]:
    """An admin signed in; the ids of one row of each kind (see ``seed_rows``)."""
    auth.login("admin")
    return seed_rows(app, client, settings)


def test_every_get_route_sends_the_security_headers(app, client, real_ids, settings):
    gateway = origin_of(settings.onboarding_url)
    seen = []
    for endpoint, url in get_urls(app, real_ids):
        response = client.get(url, headers=headers_for(endpoint, real_ids))
        body = response.get_data()
        response.close()  # static files are streamed from an open file
        assert opened(endpoint, response.status_code), (url, response.status_code)
        framed = b"<iframe" in body
        assert framed == (endpoint in FRAMING), url
        assert_hardened(response, frames=gateway if framed else "'none'")
        seen.append(endpoint)
    assert {"merchants.index", "wizard.step", "documents.step", "verification.session",
            "status.page", "admin.dashboard", "payments.detail", "static"} <= set(seen)


def test_every_page_is_marked_no_store_over_http(app, real_ids):
    """Pages and downloads show KYC and payment data: no browser or proxy may keep a copy."""
    with serve(app) as url:
        admin = sign_in(url, "admin@example.com", TEST_PASSWORD,
                        code=lambda: current_code(app, "admin@example.com"))
        seen = set()
        for endpoint, path in get_urls(app, real_ids):
            response = admin.get(url + path, timeout=30, headers=headers_for(endpoint, real_ids))
            assert opened(endpoint, response.status_code), (path, response.status_code)
            cache = response.headers.get("Cache-Control", "")
            if endpoint in STATIC_FILES:
                assert "no-store" not in cache, path  # the portal's own CSS and JavaScript
            else:
                assert cache == "no-store", (path, cache)
            seen.add(endpoint)
    assert {"merchants.detail", "documents.download", "payments.detail", "status.page",
            "verification.merchant_page", "admin.checklist_csv", "bulk.errors"} <= seen


# ---------------------------------------------------------------- HSTS and proxies


@pytest.mark.parametrize("env", ["production", "testing"])
def test_production_sends_hsts(settings, env, tmp_path):
    configured = settings.with_changes(env=env, **production_settings(tmp_path))
    with serve(create_app(configured)) as url:
        response = requests.get(url + "/login", timeout=10)
    assert response.status_code == 200
    if env == "production":
        assert response.headers["Strict-Transport-Security"] == STRICT_TRANSPORT_SECURITY
        assert int(STRICT_TRANSPORT_SECURITY.split("max-age=")[1].split(";")[0]) >= 31536000
    else:  # development and tests run over plain HTTP on localhost
        assert "Strict-Transport-Security" not in response.headers


#: What a TLS-terminating proxy adds: the client's address and the scheme it used.
CLIENT_ADDRESS = "203.0.113.9"


def failed_sign_in_address(app: Flask) -> str:
    """The client address the audit recorded for the one failed sign-in."""
    with app.app_context():
        [event] = db.session.scalars(select(AuditEvent).where(
            AuditEvent.action == "user.login", AuditEvent.outcome == "failed"))
        return str(event.detail["address"])


@pytest.mark.parametrize(("proxies", "address", "scheme"), [
    (0, "127.0.0.1", "http"),  # no proxy configured: the headers are anyone's to forge
    (1, CLIENT_ADDRESS, "https"),
])
def test_forwarded_headers_are_believed_only_from_trusted_proxies(
        app, client, settings, tmp_path, proxies, address, scheme):
    email = AuthActions(app, client).create("ops")
    with app.app_context():
        merchant = Merchant(  # every step sent: its merchant link may be made
            external_onboarding_id="EXT-PROXY-1", pan="AAKCP1234Q",
            onboarding_id="pg_onboard_proxy1",
            checklist={step.checklist_key: "COMPLETE" for step in STEPS if step.checklist_key})
        db.session.add(merchant)
        db.session.commit()
        merchant_id = merchant.id
    served = settings.with_changes(trusted_proxies=proxies)
    with gunicorn_portal(served, tmp_path / "portal.log", "--workers", "1") as url:
        forwarded = {"X-Forwarded-For": CLIENT_ADDRESS, "X-Forwarded-Proto": "https",
                     "Referer": url.replace("http://", "https://") + "/login"}
        anonymous = requests.Session()
        anonymous.headers.update(forwarded)
        token = csrf_token(anonymous.get(url + "/login", timeout=10))
        refused = anonymous.post(url + "/login", timeout=10, data={
            "email": email, "password": "not the password", "csrf_token": token})
        assert refused.status_code == 200 and "Sign-in failed" in refused.text
        ops = sign_in(url, email, TEST_PASSWORD, headers=forwarded)
        page = ops.get(f"{url}/merchants/{merchant_id}/verification", timeout=10)
        issued = ops.post(f"{url}/merchants/{merchant_id}/verification/links", timeout=10,
                          data={"csrf_token": csrf_token(page)})
    assert failed_sign_in_address(app) == address
    shown = page_of(issued).select_one("input#merchant-link-url")
    assert shown is not None, "no merchant link shown"
    assert str(shown["value"]).startswith(f"{scheme}://127.0.0.1:")


# ---------------------------------------------------------------- error pages


@pytest.fixture
def failing_app(settings: Settings) -> Flask:
    """The portal with a test-only route that raises, answering as production does (no
    propagation to the test client); the upload cap lowered so a 413 is cheap."""
    app = create_app(settings.with_changes(upload_max_bytes=1024))
    app.config.update(PROPAGATE_EXCEPTIONS=False, WTF_CSRF_ENABLED=False)

    @app.get("/_test/boom")
    @public
    def boom() -> str:
        """Fail the way a bug does."""
        raise RuntimeError(f"{BOOM} {settings.secret_key} {settings.api_secret}")

    return app


def leaked(settings: Settings, body: str) -> list[str]:
    """Whatever of the exception, its traceback or the configuration shows in ``body``."""
    secrets = [BOOM, "RuntimeError", "Traceback", 'File "', ".py", "werkzeug", "sqlalchemy",
               settings.secret_key, settings.api_key, settings.api_secret,
               settings.database_url, settings.upload_folder, settings.credentials_key]
    return [value for value in secrets if value and value.lower() in body.lower()]


@pytest.mark.parametrize("accept", ["text/html", "application/json"])
@pytest.mark.parametrize(("method", "path", "code"), [
    ("GET", "/_test/boom", 500),
    ("GET", "/no/such/page", 404),
    ("DELETE", "/logout", 405),
    ("POST", "/login", 413),
])
def test_error_pages_reveal_nothing(failing_app, settings, accept, method, path, code):
    client = failing_app.test_client()
    body = b"x" * (1024 * 1024 + 2048) if code == 413 else None
    response = client.open(path, method=method, data=body, headers={"Accept": accept},
                           content_type="application/octet-stream" if body else None)

    assert response.status_code == code
    assert response.mimetype == accept
    text = response.get_data(as_text=True)
    assert leaked(settings, text) == []
    if accept == "application/json":
        assert set(response.json) == {"error", "message", "reference"}
        assert response.json["reference"] == response.headers["X-Request-ID"]
    else:
        assert "<h1" in text
        assert response.headers["X-Request-ID"] in text  # "quote this reference"
    assert_hardened(response)
