"""A production configuration that passes the start-up checks: every required variable, secrets
as ``make run`` makes them (32 random bytes or more), and a readable gateway public key file."""

from __future__ import annotations

import secrets
from pathlib import Path

from cryptography.fernet import Fernet

from tests.support.keys import new_key_pair


def strong_secrets() -> dict[str, str]:
    """Fresh secrets production accepts, by variable."""
    return {"SECRET_KEY": secrets.token_urlsafe(48), "PAN_INDEX_KEY": secrets.token_hex(32),
            "CREDENTIALS_KEY": Fernet.generate_key().decode(),
            "KYC_ENCRYPTION_KEYS": Fernet.generate_key().decode()}


def production_environment(folder: Path) -> dict[str, str]:
    """Every variable production requires, with the gateway's public key written to ``folder``."""
    key_file = folder / "gateway_public.pem"
    key_file.write_text(new_key_pair().public_pem, encoding="utf-8")
    return {"PORTAL_ENV": "production", "GATEWAY_ONBOARDING_URL": "https://gw.example",
            "GATEWAY_API_KEY": "pk_live_1", "GATEWAY_API_SECRET": "gateway-given-secret",
            "GATEWAY_PUBLIC_KEY_FILE": str(key_file), "GATEWAY_KEY_ID": "gateway-key-1",
            **strong_secrets()}


def production_settings(folder: Path) -> dict[str, str]:
    """The same as settings keywords (``Settings.with_changes``): the secrets and key file that
    let testing settings start as production."""
    environment = production_environment(folder)
    return {"secret_key": environment["SECRET_KEY"],
            "pan_index_key": environment["PAN_INDEX_KEY"],
            "credentials_key": environment["CREDENTIALS_KEY"],
            "kyc_encryption_keys": environment["KYC_ENCRYPTION_KEYS"],
            "gateway_public_key_file": environment["GATEWAY_PUBLIC_KEY_FILE"],
            "gateway_key_id": environment["GATEWAY_KEY_ID"]}
