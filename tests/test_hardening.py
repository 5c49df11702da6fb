"""Hardening: security headers on every GET route (real rows, an admin signed in), and error
pages (500, 404, 405, 413; HTML and JSON) that reveal no traceback, exception or config value."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, url_for
from sqlalchemy import select
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from portal.auth import public
from portal.auth.accounts import find_user
from portal.config import Settings, origin_of
from portal.db import db
from portal.factory import create_app
from portal.models.document import StoredDocument
from portal.models.merchant import Merchant
from portal.models.payment import Payment
from portal.onboarding.steps import STEPS
from portal.team import tokens
from portal.verification import links
from tests.verification.conftest import onboard

#: Referrer policies that never send a portal path to another origin.
SAFE_REFERRER_POLICIES = {"no-referrer", "same-origin", "strict-origin",
                          "strict-origin-when-cross-origin"}
#: A CSV the bulk import refuses: it leaves an import row with its problems behind.
REFUSED_CSV = b"not,a,merchant,file\n1,2,3,4\n"
#: The forced exception's message: it must never reach the client.
BOOM = "kaboom in the ledger: hunter2"
STATIC_FILES = {"static": "css/wizard.css", "bulk.static": "progress.js"}
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


def refused_import(client) -> int:
    """Upload a file the bulk import refuses; the import's id from the imports page."""
    client.post("/admin/bulk/", data={"file": (io.BytesIO(REFUSED_CSV), "refused.csv")},
                content_type="multipart/form-data")
    found = re.findall(r"/admin/bulk/(\d+)", client.get("/admin/bulk/").get_data(as_text=True))
    assert found, "the refused import is not listed on the imports page"
    return int(found[0])


@pytest.fixture
def real_ids(app: Flask, client, auth, settings: Settings) -> dict[str, Any]:
    """An admin signed in; the ids of a merchant at PENDING_VERIFICATION, its document, a
    payment, a refused bulk import, and a live merchant link token."""
    auth.login("admin")
    merchant_id = onboard(app)
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        document = db.session.scalars(select(StoredDocument).where(
            StoredDocument.merchant_id == merchant_id)).first()
        assert merchant is not None and document is not None
        payment = Payment(merchant_id=merchant_id, merchant_txn_id="HARDENING-TXN-1",
                          merchant_unique_id="HARDENING-UID-1", gid="gl_hardening_1",
                          status="AUTHORIZED", amount="10.00", currency="INR",
                          action_nonce="hardening-nonce")
        db.session.add(payment)
        db.session.commit()
        _link, token = links.issue(settings.secret_key, merchant, "admin@example.com")
        admin = find_user("admin@example.com")
        password_links = {purpose.endpoint: tokens.token_for(settings.secret_key, admin, purpose)
                          for purpose in (tokens.RESET, tokens.INVITE)}
    return {"merchant_id": merchant_id, "document_id": document.id, "payment_id": payment.id,
            "import_id": refused_import(client), "token": token, "key": "merchant_link",
            "password_links": password_links}


def get_urls(app: Flask, ids: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(endpoint, URL) for every GET route, filled with real ids; every step of the wizard."""
    rules: list[Rule] = [r for r in app.url_map.iter_rules() if "GET" in (r.methods or ())]
    with app.test_request_context():
        for rule in sorted(rules, key=lambda r: r.rule):
            known = {**ids, "filename": STATIC_FILES.get(rule.endpoint)}
            unknown = rule.arguments - {k for k, v in known.items() if v is not None} - {
                "step_key"}
            assert not unknown, f"{rule.rule}: give this test a real value for {unknown}"
            values = {name: known[name] for name in rule.arguments if name != "step_key"}
            if rule.endpoint == "verification.merchant_page":
                values["token"] = ids["token"]  # a path part or ?token=, as the route wants
            if rule.endpoint in ids["password_links"]:
                values["token"] = ids["password_links"][rule.endpoint]
            for step in (STEPS if "step_key" in rule.arguments else [None]):
                if step is not None and not step.available:
                    continue
                extra = {"step_key": step.key} if step is not None else {}
                yield rule.endpoint, url_for(rule.endpoint, **values, **extra)


def test_every_get_route_sends_the_security_headers(app, client, real_ids, settings):
    gateway = origin_of(settings.onboarding_url)
    seen = []
    for endpoint, url in get_urls(app, real_ids):
        response = client.get(url)
        body = response.get_data()
        response.close()  # static files are streamed from an open file
        assert response.status_code < 400, (url, response.status_code)
        framed = b"<iframe" in body
        assert framed == (endpoint in FRAMING), url
        assert_hardened(response, frames=gateway if framed else "'none'")
        seen.append(endpoint)
    assert {"merchants.index", "wizard.step", "documents.step", "verification.session",
            "status.page", "admin.dashboard", "payments.detail", "static"} <= set(seen)


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
    ("GET", "/logout", 405),
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
        assert set(response.json) == {"error", "message"}
    else:
        assert "<h1" in text
    assert_hardened(response)
