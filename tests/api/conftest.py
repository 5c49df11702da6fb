"""Fixtures of the API's tests: keys issued with chosen scopes, calls made with them, and an
approved merchant with payment credentials (registered with the loopback sandbox)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.api_key import KeyState
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.api import keys
from portal.domain.api.scopes import Scope
from portal.domain.audit.service import SYSTEM
from portal.domain.payments import credentials as creds
from tests.conftest import with_payments

EVERY_SCOPE = tuple(Scope)
VALID_PAN = "ABCCE1234F"


@pytest.fixture
def settings(settings: Settings, sandbox, tmp_path: Path) -> Settings:
    """The suite's settings with payments (a credentials key, the sandbox's gateway key)."""
    return with_payments(settings, sandbox, tmp_path)


@pytest.fixture
def issue_key(app) -> Callable[..., str]:
    """``issue_key(*scopes, per_minute=120)``: an active key's token."""

    def issue(*scopes: Scope, per_minute: int = 120, name: str = "") -> str:
        with app.app_context():
            issued = keys.stage_key(name or f"Partner {uuid.uuid4().hex[:8]}",
                                    [str(s) for s in scopes], None, None, SYSTEM)
            issued.key.state = KeyState.ACTIVE
            issued.key.per_minute = per_minute
            db.session.commit()
            return issued.token

    return issue


@pytest.fixture
def token(issue_key) -> str:
    """A key with every scope."""
    return issue_key(*EVERY_SCOPE)


class Api:
    """Calls to /api/v1 with one key."""

    def __init__(self, client, token: str) -> None:
        self.client = client
        self.token = token

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The key's Authorization header, and ``extra``."""
        return {"Authorization": f"Bearer {self.token}", **(extra or {})}

    def get(self, path: str, **query: Any):
        """GET ``path`` under /api/v1."""
        return self.client.get("/api/v1" + path, query_string=query, headers=self.headers())

    def post(self, path: str, body: Any = None, idempotency_key: str | None = None):
        """POST ``body`` as JSON to ``path`` under /api/v1."""
        extra = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return self.client.post("/api/v1" + path, json=body if body is not None else {},
                                headers=self.headers(extra))


@pytest.fixture
def api(client, token) -> Api:
    """Calls made with a key that has every scope."""
    return Api(client, token)


def new_merchant_body(external_id: str | None = None) -> dict[str, str]:
    """A valid create (step 1) body, with a PAN of its own (the gateway refuses one twice)."""
    number = uuid.uuid4().int % 10_000
    return {"externalOnboardingId": external_id or f"pop-{uuid.uuid4().hex[:12]}",
            "panNumber": f"ABCCE{number:04d}F"}


@pytest.fixture
def approved_merchant(app, settings) -> int:
    """An APPROVED merchant with payment credentials registered with the sandbox; its id."""
    with app.app_context():
        merchant = Merchant(external_onboarding_id="pop-approved", onboarding_id="pg_onb_ok",
                            pan=VALID_PAN, display_name="Chai Point", legal_name="Chai Point",
                            status="APPROVED", create_state=CreateState.CREATED)
        db.session.add(merchant)
        db.session.commit()
        creds.save_credentials(settings, merchant, "MID-API-1", "kid-api-1", None, None,
                               actor=SYSTEM)
        return merchant.id
