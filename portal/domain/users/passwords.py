"""Password hashing (Argon2id) and generated one-time passwords."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 12

#: The Argon2id parameters in force; tests swap in ``argon2.profiles.CHEAPEST`` for speed.
hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """An Argon2id hash of ``password``."""
    return hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    """True when ``password`` matches ``password_hash``."""
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than today's."""
    return hasher.check_needs_rehash(password_hash)


@cache
def _decoy_hash() -> str:
    return hasher.hash(secrets.token_urlsafe(16))


def spend_verification_time(password: str) -> None:
    """Verify against a decoy so an unknown email takes as long as a wrong password."""
    verify_password(_decoy_hash(), password)


def fingerprint(password_hash: str) -> str:
    """A short digest of a password hash: whatever was issued against it dies when the password
    changes (reset links, a sign-in waiting for its code). Reveals nothing: the hash is salted."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:24]


def same_fingerprint(password_hash: str, seen: object) -> bool:
    """True when ``seen`` is the fingerprint of ``password_hash`` (compared in constant time)."""
    return hmac.compare_digest(str(seen), fingerprint(password_hash))


def generate_password() -> str:
    """A strong random password to hand over once."""
    return secrets.token_urlsafe(18)


def check_strength(password: str) -> str:
    """Refuse passwords shorter than MIN_LENGTH characters."""
    if len(password) < MIN_LENGTH:
        raise ValueError(f"Passwords need at least {MIN_LENGTH} characters.")
    return password
