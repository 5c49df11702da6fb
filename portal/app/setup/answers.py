"""What ``flask setup gateway`` accepts for each setting: each check returns the value as it is
written, or raises ValueError with the reason in plain words."""

from __future__ import annotations

import re
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from portal.core.config_fields import ROOT
from portal.domain.golive.checks import DEFAULT_PARTNER_NAME
from portal.gateway.rules import check_email

_MID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,63}")
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAIL_SECURITY = ("none", "starttls", "ssl")


def _one_word(value: str, what: str, shortest: int, longest: int = 256) -> str:
    value = value.strip()
    if not shortest <= len(value) <= longest or any(c.isspace() for c in value):
        raise ValueError(f"{what} is one word of {shortest} to {longest} characters, without "
                         "spaces: copy it whole from what the gateway gave you")
    return value


def partner_mid(value: str) -> str:
    """The partner's own MID."""
    value = value.strip()
    if not _MID.fullmatch(value):
        raise ValueError("the partner MID is 2 to 64 letters, digits, - and _, as the "
                         "gateway's partner dashboard shows it")
    return value


def api_key(value: str) -> str:
    """The partner API key (``x-gl-auth``)."""
    return _one_word(value, "the API key", 8)


def api_secret(value: str) -> str:
    """The partner API secret (keys the ``x-gl-digest`` HMAC)."""
    return _one_word(value, "the API secret", 16)


def key_id(value: str) -> str:
    """The kid of the gateway's public key."""
    return _one_word(value, "the key id", 1, 128)


def public_key_file(value: str) -> str:
    """A readable PEM file holding an RSA public key; its absolute path."""
    path = Path(value.strip()).expanduser()
    path = path if path.is_absolute() else ROOT / path
    try:
        text = path.read_bytes()
    except OSError:
        raise ValueError(f"there is no readable file at {path}") from None
    if b"PRIVATE KEY" in text:
        raise ValueError("this file holds a private key: give the gateway's public key, the "
                         "file that begins with -----BEGIN PUBLIC KEY-----")
    try:
        key = load_pem_public_key(text)
    except ValueError:
        raise ValueError("this file holds no public key: the gateway's key file begins with "
                         "-----BEGIN PUBLIC KEY-----") from None
    if not isinstance(key, RSAPublicKey):
        raise ValueError("this is not an RSA key: the gateway's keys are RSA keys")
    return str(path)


def address(value: str, example: str) -> str:
    """An https:// address (http:// only for a gateway or portal on this machine), without a
    trailing slash."""
    value = value.strip().rstrip("/")
    parts = urlsplit(value)
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host or parts.query or parts.fragment:
        raise ValueError(f"give a whole address such as {example}")
    if parts.scheme == "http" and host not in _LOOPBACK:
        raise ValueError(f"use https:// (such as {example}): plain http:// is only for a "
                         "server on this machine")
    return value


def origin(value: str, example: str) -> str:
    """An address with nothing after the host and port."""
    value = address(value, example)
    if urlsplit(value).path:
        raise ValueError(f"give only the scheme and host, such as {example}, with no path")
    return value


def initiate_path(value: str) -> str:
    """The payments initiate call's path."""
    value = value.strip()
    if not value.startswith("/") or any(c in value for c in "?# "):
        raise ValueError("give a path that starts with /, such as "
                         "/gl/v1/payments/initiate/paycollect")
    return value.rstrip("/")


def mail_host(value: str) -> str:
    """The SMTP server's host name."""
    value = value.strip()
    if not value or any(c.isspace() or c in "/:" for c in value):
        raise ValueError("give the mail server's host name alone, such as smtp.example.com")
    return value


def mail_port(value: str) -> str:
    """An SMTP port number."""
    if not value.strip().isdigit() or not 1 <= int(value) <= 65535:
        raise ValueError("give the port as a number from 1 to 65535, such as 587")
    return str(int(value))


def mail_security(value: str) -> str:
    """none, starttls or ssl."""
    value = value.strip().lower()
    if value not in MAIL_SECURITY:
        raise ValueError("choose none, starttls (usually port 587) or ssl (usually port 465)")
    return value


def mail_from(value: str) -> str:
    """The sender, an address with or without a display name."""
    _name, mail = parseaddr(value.strip())
    try:
        check_email(mail)
    except ValueError:
        raise ValueError("give the sender's address, such as Partner Portal "
                         "<portal@partner.example>") from None
    return value.strip()


def optional(value: str) -> str:
    """Anything, empty included (a login name or password)."""
    return value.strip()


def partner_name(value: str) -> str:
    """The name merchants and customers read: not the default."""
    value = " ".join(value.split())
    if not value or value == DEFAULT_PARTNER_NAME:
        raise ValueError("give the name merchants know you by (it is shown on their "
                         "verification and payment pages)")
    if len(value) > 80:
        raise ValueError("keep the name to 80 characters")
    return value
