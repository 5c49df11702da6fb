"""The suite's settings: one per database and sandbox, and with payments."""

from __future__ import annotations

from pathlib import Path

import requests
from cryptography.fernet import Fernet

from portal.core.config import Settings
from portal.gateway.payments.auth import KID_HEADER
from portal.sandbox.payments.routes import GATEWAY_KEY_PATH
from tests.support.sandbox import RunningSandbox, suite_dialect

PARTNER_ID = "partner-test"


API_KEY = "test-api-key"


API_SECRET = "test-api-secret-0123456789"


#: The sandbox config of the suite: one partner with one key (SANDBOX_ANSWER_DIALECT's dialect).
SANDBOX_CONFIG = {"partners": [{"partnerId": PARTNER_ID, "keys": [
    {"apiKey": API_KEY, "apiSecret": API_SECRET, "active": True}]}], **suite_dialect()}


def with_payments(settings: Settings, sandbox: RunningSandbox, folder: Path) -> Settings:
    """``settings`` plus payments: a credentials key and the sandbox's published gateway key and
    its key id (payment bodies are encrypted to it, as on the real gateway)."""
    answer = requests.get(sandbox.url + GATEWAY_KEY_PATH, timeout=5)
    answer.raise_for_status()
    key_file = folder / "gateway_public.pem"
    key_file.write_text(answer.text, encoding="utf-8")
    return settings.with_changes(credentials_key=Fernet.generate_key().decode(),
                                 gateway_public_key_file=str(key_file),
                                 gateway_key_id=answer.headers[KID_HEADER])


def settings_for(database_url: str, sandbox_url: str, folder: Path) -> Settings:
    """Testing settings pointing at a sandbox and a database, uploads kept under ``folder``."""
    return Settings(
        env="testing",
        secret_key="test-secret-key",
        database_url=database_url,
        onboarding_url=sandbox_url,
        payments_url=sandbox_url,
        api_key=API_KEY,
        api_secret=API_SECRET,
        webhook_secrets=(API_SECRET,),
        gateway_is_sandbox=True,
        connect_timeout=2.0,
        read_timeout=5.0,
        upload_folder=str(folder / "uploads"),
        credentials_key="",
        kyc_encryption_keys=Fernet.generate_key().decode(),
        pan_index_key="test-pan-index-key",
        sms_sink_folder=str(folder / "sms"),
    )
