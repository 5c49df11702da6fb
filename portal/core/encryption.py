"""Encryption at rest: Fernet keys given newest first (MultiFernet, so keys can be rotated) and
the keyed blind index that lets a full PAN be searched without storing it in clear.

The same key handling serves merchants' payment private keys (CREDENTIALS_KEY) and their KYC
data (KYC_ENCRYPTION_KEYS): a comma-separated list whose first key encrypts and whose every key
decrypts. ``flask --app app keys rotate`` re-encrypts everything with the first key.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from cryptography.fernet import Fernet, MultiFernet
from flask import Flask, current_app

from portal.core.config import ConfigError, Settings

EXTENSION = "portal_cipher"
CREDENTIALS_VARIABLE = "CREDENTIALS_KEY"
KYC_KEYS_VARIABLE = "KYC_ENCRYPTION_KEYS"
PAN_INDEX_VARIABLE = "PAN_INDEX_KEY"


class KeyConfigError(ConfigError):
    """A key is missing or not a Fernet key; the message names the variable."""


def key_list(text: str) -> list[str]:
    """The keys of a comma-separated variable, newest first."""
    return [key.strip() for key in text.split(",") if key.strip()]


def multi_fernet(text: str, variable: str, what: str) -> MultiFernet:
    """The keys in ``text`` (newest first) as one MultiFernet; refused when empty or invalid."""
    keys = key_list(text)
    if not keys:
        raise KeyConfigError(
            f"{variable} is not set, so {what} cannot be stored encrypted. Set it to a Fernet key "
            "(32 url-safe base64-encoded bytes) in the environment or .env file.")
    try:
        return MultiFernet([Fernet(key) for key in keys])
    except ValueError:
        raise KeyConfigError(f"{variable} is not a Fernet key (32 url-safe base64-encoded "
                             "bytes); several keys are separated by commas, newest first."
                             ) from None


def normalised_pan(pan: str) -> str:
    """A PAN as it is indexed and compared: no surrounding spaces, upper case."""
    return pan.strip().upper()


def blind_index(pan: str, key: str) -> str:
    """HMAC-SHA256 of the normalised PAN under ``key``, hex: equal PANs give equal indexes."""
    return hmac.new(key.encode("utf-8"), normalised_pan(pan).encode("utf-8"),
                    hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Cipher:
    """Encrypts and decrypts KYC fields and computes the PAN's blind index."""

    fernet: MultiFernet
    index_key: str

    @classmethod
    def from_settings(cls, settings: Settings) -> Cipher:
        """The cipher configured by KYC_ENCRYPTION_KEYS and PAN_INDEX_KEY."""
        if not settings.pan_index_key:
            raise KeyConfigError(f"{PAN_INDEX_VARIABLE} is not set, so PANs cannot be searched. "
                                 "Set it to a long random string (e.g. 32 random bytes, hex).")
        return cls(multi_fernet(settings.kyc_encryption_keys, KYC_KEYS_VARIABLE,
                                "PANs, account numbers and contacts"),
                   settings.pan_index_key)

    def encrypt(self, text: str) -> str:
        """A Fernet token of ``text`` under the newest key."""
        return self.fernet.encrypt(text.encode("utf-8")).decode("ascii")

    def decrypt(self, token: str) -> str:
        """The text of a token made with any configured key (InvalidToken otherwise)."""
        return self.fernet.decrypt(token.encode("ascii")).decode("utf-8")

    def rotate(self, token: str) -> str:
        """The same text re-encrypted under the newest key."""
        return self.fernet.rotate(token.encode("ascii")).decode("ascii")

    def pan_index(self, pan: str) -> str | None:
        """The blind index of a PAN (None for no PAN, which nobody searches for)."""
        return blind_index(pan, self.index_key) if normalised_pan(pan) else None


def install(app: Flask, settings: Settings) -> None:
    """Give ``app`` its cipher. Missing or unusable keys stop start-up in every environment
    (KeyConfigError naming the variable): in development too, a portal without them could only
    answer 500 at the first page that reads a merchant or a user's contact."""
    app.extensions[EXTENSION] = Cipher.from_settings(settings)


def current_cipher() -> Cipher:
    """The cipher of the current app."""
    cipher: Cipher = current_app.extensions[EXTENSION]
    return cipher
