"""A merchant's payments credentials: MID, kid and an RSA key pair whose private half is kept
Fernet-encrypted with CREDENTIALS_KEY and never shown.

In sandbox mode the public key is registered with the sandbox as soon as it is saved; with the
real gateway, ops copy the public key PEM to the gateway's dashboard.
"""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass

import requests
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.fernet import InvalidToken, MultiFernet
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy import select

from portal.audit import record
from portal.config import Settings
from portal.db import db
from portal.encryption import CREDENTIALS_VARIABLE, KeyConfigError, multi_fernet
from portal.gateway.payments_client import PaymentsClient
from portal.gateway.transport import Timeouts
from portal.models.merchant import Merchant
from portal.models.payment import PaymentCredentials
from portal.payments.services import unavailable_reason

log = logging.getLogger("portal.payments")

KEY_SIZE = 2048
GENERATED = "generated"
IMPORTED = "imported"
#: Where the sandbox takes merchant keys (portal.sandbox.control).
SANDBOX_REGISTRATION_PATH = "/_sandbox/merchants"
MID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KID_PATTERN = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


class CredentialsError(Exception):
    """The credentials cannot be used or stored; the message is for the person at the screen."""


@dataclass(frozen=True)
class SavedCredentials:
    """Credentials just stored, and whether the sandbox now knows the key."""

    credentials: PaymentCredentials
    sandbox_registered: bool | None

    @property
    def message(self) -> str:
        """What to tell the admin: where the key is, and what is left to do with the gateway."""
        kept = ("Credentials saved. The private key is stored encrypted and is never shown; "
                if self.credentials.origin == GENERATED else
                "Key imported. The private key is stored encrypted and is never shown again; ")
        if self.sandbox_registered is None:
            return kept + "copy the public key below to the gateway's dashboard for this MID."
        if self.sandbox_registered:
            return kept + "the public key was registered with the sandbox automatically."
        return kept + "the sandbox could not be reached to register the public key; save again."


def _fernet(settings: Settings) -> MultiFernet:
    try:
        return multi_fernet(settings.credentials_key, CREDENTIALS_VARIABLE, "private keys")
    except KeyConfigError as exc:
        raise CredentialsError(str(exc)) from None


def prefill(current: PaymentCredentials | None, sandbox: bool) -> dict[str, str]:
    """The form's MID and kid: the current ones, else fresh ones in sandbox mode, else none."""
    if current is not None:
        return {"mid": current.mid, "kid": current.kid}
    if sandbox:
        return {"mid": "SBX" + secrets.token_hex(6).upper(), "kid": "kid-" + secrets.token_hex(8)}
    return {}


def generate_key() -> rsa.RSAPrivateKey:
    """A fresh RSA-2048 private key."""
    return rsa.generate_private_key(public_exponent=65537, key_size=KEY_SIZE)


def read_private_key(pem: str) -> rsa.RSAPrivateKey:
    """An imported PEM private key, refused unless it is an unencrypted RSA key of 2048+ bits."""
    try:
        key = serialization.load_pem_private_key(pem.strip().encode("utf-8"), password=None)
    except TypeError:
        raise CredentialsError("The key is protected by a passphrase; export it without one "
                               "(it is encrypted here with CREDENTIALS_KEY).") from None
    except (ValueError, UnsupportedAlgorithm):
        raise CredentialsError("This is not a PEM private key (-----BEGIN PRIVATE KEY----- or "
                               "-----BEGIN RSA PRIVATE KEY-----).") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise CredentialsError("The key must be an RSA key; the gateway signs with RS256.")
    if key.key_size < KEY_SIZE:
        raise CredentialsError(f"The key has {key.key_size} bits; use at least {KEY_SIZE}.")
    return key


def public_pem(key: rsa.RSAPrivateKey) -> str:
    """The public half as an SPKI PEM, to register with the gateway."""
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def credentials_of(merchant: Merchant) -> PaymentCredentials | None:
    """The merchant's credentials, if set up."""
    return db.session.scalar(
        select(PaymentCredentials).where(PaymentCredentials.merchant_id == merchant.id))


def save_credentials(settings: Settings, merchant: Merchant, mid: str, kid: str,
                     imported_pem: str | None, user_id: int | None,
                     replace: bool = False) -> SavedCredentials:
    """Store new credentials (generated, or imported from ``imported_pem``); replacing existing
    ones takes ``replace``."""
    reason = unavailable_reason(merchant)
    if reason:
        raise CredentialsError(reason)
    credentials = credentials_of(merchant)
    replaced = credentials is not None
    if replaced and not replace:
        raise CredentialsError("Tick the box to replace the current credentials.")
    fernet = _fernet(settings)
    key = read_private_key(imported_pem) if imported_pem else generate_key()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    if credentials is None:
        credentials = PaymentCredentials(merchant_id=merchant.id)
        db.session.add(credentials)
    credentials.mid = mid
    credentials.kid = kid
    credentials.public_key_pem = public_pem(key)
    credentials.private_key_encrypted = fernet.encrypt(private).decode("ascii")
    credentials.origin = IMPORTED if imported_pem else GENERATED
    credentials.created_by_id = user_id
    record("payments.credentials", merchant_id=merchant.id,
           detail={"mid": mid, "kid": kid, "origin": credentials.origin, "replaced": replaced})
    db.session.commit()
    registered = register_with_sandbox(settings, credentials) if settings.gateway_is_sandbox \
        else None
    return SavedCredentials(credentials, registered)


def register_with_sandbox(settings: Settings, credentials: PaymentCredentials) -> bool:
    """Tell the local sandbox about the public key; False (and a log line) when it cannot."""
    body = {"mid": credentials.mid, "kid": credentials.kid,
            "publicKeyPem": credentials.public_key_pem}
    try:
        response = requests.post(settings.payments_url + SANDBOX_REGISTRATION_PATH, json=body,
                                 timeout=(settings.connect_timeout, settings.read_timeout))
    except requests.RequestException as exc:
        log.warning("sandbox key registration for kid %s failed: %s", credentials.kid,
                    type(exc).__name__)
        return False
    if not response.ok:
        log.warning("sandbox key registration for kid %s answered %d", credentials.kid,
                    response.status_code)
    return response.ok


def client_for(settings: Settings, credentials: PaymentCredentials) -> PaymentsClient:
    """A payments client signing as the merchant, its private key decrypted for the call."""
    try:
        private = _fernet(settings).decrypt(credentials.private_key_encrypted.encode("ascii"))
    except InvalidToken:
        raise CredentialsError("The stored private key cannot be decrypted with this "
                               "CREDENTIALS_KEY; an admin must set up the credentials again."
                               ) from None
    return PaymentsClient(settings.payments_url, merchant_id=credentials.mid, kid=credentials.kid,
                          private_key_pem=private,
                          timeouts=Timeouts(settings.connect_timeout, settings.read_timeout))
