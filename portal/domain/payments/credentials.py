"""A merchant's payments credentials: MID, kid and an RSA key pair whose private half is kept
Fernet-encrypted with CREDENTIALS_KEY and never shown, or, instead of its own key pair, the
partner's portfolio key (``portal.domain.payments.portfolio``).

In sandbox mode the public key is registered with the sandbox as soon as it is saved; with the
real gateway, ops copy the public key PEM to the gateway's dashboard.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

import requests
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.fernet import InvalidToken, MultiFernet
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from sqlalchemy import select

from portal.core import clients
from portal.core.config import Settings
from portal.core.db import db
from portal.core.encryption import CREDENTIALS_VARIABLE, KeyConfigError, multi_fernet
from portal.core.models.merchant import Merchant
from portal.core.models.payment import PaymentCredentials, PortfolioKey
from portal.domain.audit.service import Actor, record
from portal.domain.payments import setup_requests
from portal.domain.payments.service import not_approved_reason
from portal.gateway.payments.client import PaymentsClient

log = logging.getLogger("portal.payments")

KEY_SIZE = 2048
GENERATED = "generated"
IMPORTED = "imported"
#: The credentials form's choice of key: the merchant's own, or the partner's portfolio key.
OWN_KEY = "own"
PORTFOLIO = "portfolio"
#: Where the sandbox takes merchant keys (portal.sandbox.controls).
SANDBOX_REGISTRATION_PATH = "/_sandbox/merchants"
MID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KID_PATTERN = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


class CredentialsError(Exception):
    """The credentials cannot be used or stored; the message is for the person at the screen."""


@dataclass(frozen=True)
class SavedKey:
    """A key pair just stored (a merchant's or the portfolio's), and whether the sandbox now
    knows it (None: the real gateway, where ops register it)."""

    origin: str | None
    sandbox_registered: bool | None

    @property
    def message(self) -> str:
        """What to tell the admin: where the key is, and what is left to do with the gateway."""
        if self.origin is None:
            kept = "Credentials saved: this merchant signs with the partner's portfolio key; "
            at_gateway = "register the MID under the parent MID at the gateway."
        else:
            kept = ("Credentials saved. The private key is stored encrypted and is never shown; "
                    if self.origin == GENERATED else
                    "Key imported. The private key is stored encrypted and is never shown again; ")
            at_gateway = "copy the public key below to the gateway's dashboard for this MID."
        return kept + {
            None: at_gateway,
            True: "the key was registered with the sandbox automatically.",
            False: "the sandbox could not be reached to register the key; save again.",
        }[self.sandbox_registered]


@dataclass(frozen=True)
class KeyMaterial:
    """A key pair ready to store: the public PEM, the encrypted private PEM and its origin."""

    public_key_pem: str
    private_key_encrypted: str
    origin: str


@dataclass(frozen=True)
class Signer:
    """What signs a merchant's calls: its own key, or the portfolio key with its parent MID."""

    kid: str
    public_key_pem: str
    private_key_encrypted: str
    parent_mid: str | None = None


def _fernet(settings: Settings) -> MultiFernet:
    try:
        return multi_fernet(settings.credentials_key, CREDENTIALS_VARIABLE, "private keys")
    except KeyConfigError as exc:
        raise CredentialsError(str(exc)) from None


def prefill(current: PaymentCredentials | None, sandbox: bool,
            gateway_mid: str | None = None) -> dict[str, str]:
    """The form's MID, kid and key choice: the current ones, else the MID the gateway gave the
    merchant on approval (``gateway_mid``, still editable), else fresh ones in sandbox mode."""
    if current is not None:
        return {"mid": current.mid, "kid": current.kid or "",
                "key_source": PORTFOLIO if current.portfolio_key_id else OWN_KEY}
    offered = {"mid": gateway_mid} if gateway_mid else {}
    if sandbox:
        return {"mid": "SBX" + secrets.token_hex(6).upper(), "kid": "kid-" + secrets.token_hex(8),
                **offered}
    return offered


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


def key_material(settings: Settings, imported_pem: str | None) -> KeyMaterial:
    """A fresh key pair (or the imported one), its private half encrypted with CREDENTIALS_KEY."""
    fernet = _fernet(settings)
    key = read_private_key(imported_pem) if imported_pem else generate_key()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return KeyMaterial(public_pem(key), fernet.encrypt(private).decode("ascii"),
                       IMPORTED if imported_pem else GENERATED)


def signer_of(credentials: PaymentCredentials) -> Signer:
    """The key a merchant's calls are signed with."""
    portfolio = credentials.portfolio_key
    if portfolio is not None:
        return Signer(portfolio.kid, portfolio.public_key_pem, portfolio.private_key_encrypted,
                      portfolio.parent_mid)
    assert credentials.kid and credentials.public_key_pem and credentials.private_key_encrypted
    return Signer(credentials.kid, credentials.public_key_pem, credentials.private_key_encrypted)


def credentials_of(merchant: Merchant) -> PaymentCredentials | None:
    """The merchant's credentials, if set up."""
    return db.session.scalar(
        select(PaymentCredentials).where(PaymentCredentials.merchant_id == merchant.id))


def portfolio_key() -> PortfolioKey | None:
    """The partner's portfolio key, if an admin set one up (there is at most one)."""
    return db.session.scalar(select(PortfolioKey).order_by(PortfolioKey.id).limit(1))


def save_credentials(settings: Settings, merchant: Merchant, mid: str, kid: str | None,
                     imported_pem: str | None, user_id: int | None, replace: bool = False,
                     use_portfolio: bool = False, *, actor: Actor) -> SavedKey:
    """Store new credentials: the merchant's own key pair under ``kid`` (generated, or imported
    from ``imported_pem``), or with ``use_portfolio`` the partner's portfolio key. Replacing
    existing ones takes ``replace``. Audited as ``actor``'s."""
    reason = not_approved_reason(merchant)  # set up ahead of the cards approval if need be
    if reason:
        raise CredentialsError(reason)
    credentials = credentials_of(merchant)
    replaced = credentials is not None
    if replaced and not replace:
        raise CredentialsError("Tick the box to replace the current credentials.")
    portfolio = portfolio_key() if use_portfolio else None
    if use_portfolio and portfolio is None:
        raise CredentialsError("No portfolio key is set up yet: an admin sets it up on the "
                               "portfolio key page first.")
    material = key_material(settings, imported_pem) if portfolio is None else None
    if credentials is None:
        credentials = PaymentCredentials(merchant_id=merchant.id)
        db.session.add(credentials)
    credentials.mid = mid
    credentials.portfolio_key = portfolio
    credentials.kid = kid if material else None
    credentials.public_key_pem = material.public_key_pem if material else None
    credentials.private_key_encrypted = material.private_key_encrypted if material else None
    credentials.origin = material.origin if material else None
    credentials.created_by_id = user_id
    record("payments.credentials", actor=actor, merchant_id=merchant.id,
           detail={"mid": mid, "kid": signer_of(credentials).kid, "origin": credentials.origin,
                   "parent_mid": portfolio.parent_mid if portfolio else None,
                   "replaced": replaced})
    setup_requests.close(merchant, actor)
    db.session.commit()
    registered = register_with_sandbox(settings, credentials) if settings.gateway_is_sandbox \
        else None
    return SavedKey(credentials.origin, registered)


def register_with_sandbox(settings: Settings, credentials: PaymentCredentials) -> bool:
    """Tell the local sandbox about the merchant's key, or that the portfolio key signs for it."""
    signer = signer_of(credentials)
    if signer.parent_mid:
        return register_key(settings, signer.parent_mid, signer.kid, signer.public_key_pem,
                            [credentials.mid])
    return register_key(settings, credentials.mid, signer.kid, signer.public_key_pem)


def register_key(settings: Settings, mid: str, kid: str, public_key_pem: str,
                 sub_merchants: Iterable[str] = ()) -> bool:
    """Register a public key with the local sandbox (``sub_merchants``: the MIDs a portfolio key
    signs for); False (and a log line) when it cannot."""
    body = {"mid": mid, "kid": kid, "publicKeyPem": public_key_pem,
            "subMerchants": list(sub_merchants)}
    try:
        response = requests.post(settings.payments_url + SANDBOX_REGISTRATION_PATH, json=body,
                                 timeout=(settings.connect_timeout, settings.read_timeout))
    except requests.RequestException as exc:
        log.warning("sandbox key registration for kid %s failed: %s", kid, type(exc).__name__)
        return False
    if not response.ok:
        log.warning("sandbox key registration for kid %s answered %d", kid, response.status_code)
    return response.ok


def client_for(settings: Settings, credentials: PaymentCredentials, *,
               quick: bool = False) -> PaymentsClient:
    """A payments client signing as the merchant (with its own key or the portfolio key), the
    private key decrypted for the call; built by :mod:`portal.core.clients` (``quick``: one that
    answers within a few seconds)."""
    signer = signer_of(credentials)
    try:
        private = _fernet(settings).decrypt(signer.private_key_encrypted.encode("ascii"))
    except InvalidToken:
        raise CredentialsError("The stored private key cannot be decrypted with this "
                               "CREDENTIALS_KEY; an admin must set up the credentials again."
                               ) from None
    try:
        return clients.payments_client(settings, mid=credentials.mid, kid=signer.kid,
                                       private_key_pem=private, parent_mid=signer.parent_mid,
                                       quick=quick)
    except clients.GatewayKeyMissing as exc:
        raise CredentialsError(str(exc)) from None
