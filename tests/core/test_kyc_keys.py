"""The KYC keys: migration 0012 encrypts existing rows, ``flask keys rotate`` moves everything to
the newest key (and a new PAN index key), and a missing key is named."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from alembic import command
from bs4 import BeautifulSoup
from cryptography.fernet import Fernet
from sqlalchemy import text

from portal.app.factory import create_app
from portal.core.config import ConfigError, Settings, settings_from_env
from portal.core.db import db, make_engine
from portal.core.encryption import KeyConfigError, blind_index
from portal.core.migrate import alembic_config, upgrade
from portal.core.models import Merchant, PaymentCredentials, StepDraft
from tests.support.accounts import AuthActions

PAN = "ABCDE1234F"
OWNER_DOC = "ABCPR1234K_ASHA_RAO_AADHAR"
ACCOUNT = "123456789012"
EMAIL = "asha.rao@merchant.example.com"
#: A timestamp as the raw INSERTs bind it: text, as sqlite3 stored datetimes (its default
#: datetime adapter is deprecated since Python 3.12).
AT = str(datetime(2026, 1, 1, 9, 0))


def key_settings(database_url: str, keys: str, index_key: str = "index-key-1") -> Settings:
    """Testing settings for a database and a set of KYC keys (no gateway is needed here)."""
    return Settings(env="testing", secret_key="test-secret-key", database_url=database_url,
                    kyc_encryption_keys=keys, pan_index_key=index_key)


def add_plain_rows(url: str) -> None:
    """A merchant, its bank draft and a queued send as revision 0007 stored them: in clear."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO merchants (id, external_onboarding_id, pan, display_name, "
                "legal_name, create_state, created_at, last_activity_at, checklist, "
                "documents_outstanding) VALUES (1, 'ext-1', :pan, 'Shop One', '', 'created', "
                ":at, :at, '{}', :docs)"), {"pan": PAN, "at": AT, "docs": json.dumps([OWNER_DOC])})
            body = json.dumps({"bankAccountNumber": ACCOUNT, "contact": {"email": EMAIL}})
            conn.execute(text(
                "INSERT INTO step_drafts (merchant_id, step, payload, state, last_error, "
                "last_gid, updated_at, version) VALUES (1, 'bank', :body, 'queued', '{}', '', "
                ":at, 1)"), {"body": body, "at": AT})
            conn.execute(text(
                "INSERT INTO outbox_items (merchant_id, step, draft_version, payload, state, "
                "attempts, next_attempt_at, last_error, created_at) VALUES (1, 'bank', 1, "
                ":body, 'pending', 0, :at, '', :at)"), {"body": body, "at": AT})
    finally:
        engine.dispose()


def raw_values(url: str) -> list[str]:
    """The encrypted columns' values as stored."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [str(value) for query in (
                "SELECT pan, pan_index, documents_outstanding FROM merchants",
                "SELECT payload FROM step_drafts", "SELECT payload FROM outbox_items")
                for row in conn.execute(text(query)) for value in row]
    finally:
        engine.dispose()


def found_by_pan(app, query: str) -> list[str]:
    """The merchant names the list shows for a search, as an ops user sees it."""
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    AuthActions(app, client).login("ops")
    page = client.get("/merchants", query_string={"q": query})
    assert page.status_code == 200
    soup = BeautifulSoup(page.text, "html.parser")
    return [a.get_text() for a in soup.select("table.merchants tbody tr a")]


def test_the_migration_encrypts_existing_rows_and_pan_search_finds_them(any_database_url):
    upgrade(any_database_url, "0007")
    add_plain_rows(any_database_url)
    settings = key_settings(any_database_url, Fernet.generate_key().decode())
    upgrade(any_database_url, settings=settings)

    stored = raw_values(any_database_url)
    assert not [v for v in stored if PAN in v or ACCOUNT in v or EMAIL in v or OWNER_DOC in v]
    assert blind_index(PAN, "index-key-1") in stored
    app = create_app(settings)
    with app.app_context():
        merchant = db.session.get(Merchant, 1)
        assert (merchant.pan, merchant.documents_outstanding) == (PAN, [OWNER_DOC])
        draft = db.session.query(StepDraft).one()
        assert draft.payload["bankAccountNumber"] == ACCOUNT
    assert found_by_pan(app, PAN.lower()) == ["Shop One"]
    db.engine(app).dispose()

    command.downgrade(alembic_config(any_database_url, settings), "0007")
    engine = make_engine(any_database_url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT pan FROM merchants")).scalar() == PAN
            payload = conn.execute(text("SELECT payload FROM outbox_items")).scalar()
    finally:
        engine.dispose()
    assert ACCOUNT in str(payload)


def test_the_migration_names_the_missing_key_when_there_are_rows(tmp_path, monkeypatch):
    monkeypatch.delenv("KYC_ENCRYPTION_KEYS", raising=False)
    monkeypatch.setattr("portal.core.config.env_files", lambda: ())
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0007")
    add_plain_rows(url)
    with pytest.raises(KeyConfigError, match="KYC_ENCRYPTION_KEYS is not set"):
        upgrade(url, settings=key_settings(url, ""))


def test_rotation_moves_every_value_to_the_newest_key_and_index_key(database_url):
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    credentials_old, credentials_new = Fernet.generate_key(), Fernet.generate_key()
    before = create_app(key_settings(database_url, old).with_changes(
        credentials_key=credentials_old.decode()))
    with before.app_context():
        merchant = Merchant(external_onboarding_id="ext-1", pan=PAN, display_name="Shop One",
                            checklist={}, documents_outstanding=[OWNER_DOC])
        db.session.add(merchant)
        db.session.flush()
        db.session.add(StepDraft(merchant_id=merchant.id, step="bank", payload={
            "bankAccountNumber": ACCOUNT}, last_error={}, version=1))
        db.session.add(PaymentCredentials(
            merchant_id=merchant.id, mid="MID1", kid="kid-1", public_key_pem="-", origin="x",
            private_key_encrypted=Fernet(credentials_old).encrypt(b"private").decode()))
        db.session.commit()
    db.engine(before).dispose()

    rotating = create_app(key_settings(database_url, f"{new}, {old}", "index-key-2").with_changes(
        credentials_key=f"{credentials_new.decode()},{credentials_old.decode()}"))
    result = rotating.test_cli_runner().invoke(args=["keys", "rotate"])
    assert result.exit_code == 0, result.output
    assert "3 KYC values, 1 private keys" in result.output
    db.engine(rotating).dispose()

    after = create_app(key_settings(database_url, new, "index-key-2"))
    with after.app_context():
        merchant = db.session.get(Merchant, 1)
        assert (merchant.pan, merchant.documents_outstanding) == (PAN, [OWNER_DOC])
        assert db.session.query(StepDraft).one().payload == {"bankAccountNumber": ACCOUNT}
        token = db.session.query(PaymentCredentials).one().private_key_encrypted
        assert Fernet(credentials_new).decrypt(token.encode()) == b"private"
    assert found_by_pan(after, PAN) == ["Shop One"]


def test_without_kyc_keys_the_portal_does_not_start_and_the_variable_is_named(database_url):
    with pytest.raises(KeyConfigError, match="KYC_ENCRYPTION_KEYS is not set"):
        create_app(key_settings(database_url, ""))


def test_production_requires_the_kyc_keys():
    with pytest.raises(ConfigError) as caught:
        settings_from_env({"PORTAL_ENV": "production"}).check()
    assert "KYC_ENCRYPTION_KEYS" in str(caught.value)
    assert "PAN_INDEX_KEY" in str(caught.value)


def test_unusable_keys_stop_start_up(database_url):
    with pytest.raises(KeyConfigError, match="not a Fernet key"):
        create_app(key_settings(database_url, "not-a-key"))
