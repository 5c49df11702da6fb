"""Fixtures of the API's tests: keys issued with chosen scopes, calls made with them, and an
approved merchant with payment credentials (registered with the loopback sandbox)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.api_key import KeyState
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.api import keys
from portal.domain.api.scopes import Scope
from portal.domain.audit.service import SYSTEM
from portal.domain.payments import credentials as creds
from tests.api.support import EVERY_SCOPE, Api
from tests.support.mail import mail_sink
from tests.support.settings import with_payments

__all__ = ["mail_sink"]

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


@pytest.fixture
def api(client, token) -> Api:
    """Calls made with a key that has every scope."""
    return Api(client, token)


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
