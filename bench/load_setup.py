"""What the load bench's people find when they arrive (``bench/load.py``): a portal database
with a thousand merchants and two thousand payments to list and search, approved merchants
with payment credentials registered with the sandbox, and accounts with known authenticator
secrets; and the plan the Locust process reads (``bench/load_people.py``): those accounts, the
searches, and the form data a person types."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests
from cryptography.fernet import Fernet
from flask import Flask

from bench.business_names import business_name
from bench.payment_seed import email, seed_payments
from bench.seed import seed_merchants
from bench.stack import PASSWORD
from portal.app.factory import create_app
from portal.core import clock
from portal.core.config import current_settings, settings_from_env
from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.user import Role
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding import scenarios
from portal.domain.payments.credentials import prefill, save_credentials
from portal.domain.users.accounts import create_user
from portal.domain.users.totp import new_secret
from portal.gateway.payments.auth import KID_HEADER
from portal.sandbox.payments.routes import GATEWAY_KEY_PATH
from tests.support.browser import flatten

SEEDED_MERCHANTS = 1_000
SEEDED_PAYMENTS = 2_000
#: The seeded merchants are approved: the sandbox knows none of them, so the worker's sync
#: (every open merchant's status, each minute) would read a thousand refusals a minute; it
#: reads the merchants the people create.
SEEDED_STATUS = "APPROVED"
#: Approved merchants with credentials, the holds are spread over.
APPROVED = 5
#: Accounts of the person alone (before the crowd and after it): they sign in again often,
#: each sign-in with an account whose last code is older than the current 30-second step (a
#: code is never accepted twice).
SINGLE_ACCOUNTS = 30
#: Accounts per person of the crowd: one in use, one resting until its next code.
ACCOUNTS_PER_PERSON = 2
#: New merchants each person may create (one on arrival, then now and then).
CREATES_PER_PERSON = 20
#: New merchants the person alone may create (about one a second, without pauses).
SINGLE_CREATES = 200
#: The hold a person places (the billing email is made unique by each person).
HOLD = {"paymentData": {"totalAmount": "1250.00", "txnCurrency": "INR", "billingData": {
    "firstName": "Meera", "lastName": "Iyer", "emailId": "", "callingCode": "+91",
    "phoneNumber": "9876543210", "addressStreet1": "4 Brigade Road", "addressCity": "Bengaluru",
    "addressState": "Karnataka", "addressPostalCode": "560001", "addressCountry": "IND"}}}


def payments_env(sandbox_url: str, folder: Path) -> dict[str, str]:
    """The variables that turn payments on: a credentials key and the sandbox's published
    gateway key (bodies are encrypted to it) with its key id."""
    answer = requests.get(sandbox_url + GATEWAY_KEY_PATH, timeout=10)
    answer.raise_for_status()
    key_file = folder / "gateway_public.pem"
    key_file.write_text(answer.text, encoding="utf-8")
    return {"GATEWAY_PAYMENTS_URL": sandbox_url, "CREDENTIALS_KEY": Fernet.generate_key().decode(),
            "GATEWAY_PUBLIC_KEY_FILE": str(key_file), "GATEWAY_KEY_ID": answer.headers[KID_HEADER]}


def prepare(env: dict[str, str], people: int, plan_file: Path) -> Flask:
    """Seed the database of ``env`` for ``people`` and write their plan to ``plan_file``; the
    app built on it is returned, to read the database afterwards."""
    app = create_app(settings_from_env(env))
    approved = _approved_merchants(app)
    seed_merchants(app, SEEDED_MERCHANTS, status=SEEDED_STATUS)
    seed_payments(app, SEEDED_PAYMENTS, approved)
    alone = _accounts(app, "single", SINGLE_ACCOUNTS)
    plan = {"accounts": {"single": alone, "after": alone,
                         "load": _accounts(app, "crowd", people * ACCOUNTS_PER_PERSON)},
            "password": PASSWORD, "approved": approved,
            "merchant_searches": [business_name(n).split()[0] for n in range(1, 40)],
            "payment_searches": [email(n) for n in range(0, SEEDED_PAYMENTS, 97)],
            "creates": {"single": _forms("create", SINGLE_CREATES),
                        "after": _forms("create", SINGLE_CREATES),
                        "load": _forms("create", people * CREATES_PER_PERSON)},
            "business": _form("business"), "hold": _fields(HOLD)}
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    return app


def _form(step: str) -> dict[str, Any]:
    return _fields(scenarios.form_data(scenarios.HAPPY, step))


def _forms(step: str, count: int) -> list[dict[str, Any]]:
    """``count`` forms of ``step``, each its own (a create's external id and PAN)."""
    return [_form(step) for _ in range(count)]


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    """Nested form data as the form's field names, unticked boxes left out."""
    return {name: value for name, value in flatten(data).items() if value is not None}


def _accounts(app: Flask, kind: str, count: int) -> list[dict[str, str]]:
    """``count`` ops accounts with an authenticator each; their emails and secrets."""
    accounts = []
    with app.app_context():
        for n in range(count):
            user = create_user(f"{kind}{n}@load.example", PASSWORD, Role.OPS)
            user.totp_secret = new_secret()
            user.totp_enrolled_at = clock.utcnow()
            accounts.append({"email": user.email, "secret": user.totp_secret})
        db.session.commit()
    return accounts


def _approved_merchants(app: Flask) -> list[int]:
    """APPROVED merchants with their own key pair, registered with the sandbox as the
    credentials page does."""
    ids = []
    with app.app_context():
        settings = current_settings()
        for n in range(APPROVED):
            merchant = Merchant(external_onboarding_id=f"load-approved-{n}",
                                onboarding_id=f"pg_onboard_load{n:04d}", pan="AAACL1234C",
                                display_name=f"Load Approved {n}", legal_name=f"Load Approved {n}",
                                status="APPROVED", create_state=CreateState.CREATED)
            db.session.add(merchant)
            db.session.commit()
            values = prefill(None, sandbox=True)
            saved = save_credentials(settings, merchant, values["mid"], values["kid"], None,
                                     None, actor=SYSTEM)
            assert saved.sandbox_registered, "the sandbox did not take the merchant's key"
            ids.append(merchant.id)
    return ids
