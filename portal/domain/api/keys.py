"""API keys: issued with their secret shown once, checked on every call, revoked.

A token is ``pop_<lookup id>_<secret>``. The lookup id finds the row; the secret is stored as
its SHA-256 and compared with ``hmac.compare_digest``. A fast hash is enough: the secret is 32
random bytes (256 bits), so no guess list can reach it, unlike a password, which is why the
portal's Argon2 (built to slow guessing of chosen passwords) would only cost every call
tens of milliseconds. Functions take plain arguments and commit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update

from portal.core import clock
from portal.core.db import db
from portal.core.models.api_key import ApiKey, KeyState
from portal.core.refusals import FieldRefused
from portal.domain.api.scopes import NEEDS_SECOND_ADMIN, Scope
from portal.domain.audit.service import Actor, record

PREFIX = "pop"
NAME_MAX = 80
#: Last-used times closer together than this are not written again (one write a minute).
LAST_USED_STEP_SECONDS = 60


class KeyRefused(FieldRefused):
    """The key cannot be created as asked; ``field`` names the form field it belongs to."""


@dataclass(frozen=True)
class IssuedKey:
    """A new key and its token, which is shown once and never again."""

    key: ApiKey
    token: str


def actor_of_key(key: ApiKey) -> Actor:
    """Who a call made with ``key`` is credited to in the audit trail: the key by its name."""
    return Actor(f"API key {key.name}")


def digest(secret: str) -> str:
    """The stored form of a key's secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def needs_second_admin(scopes: list[str]) -> bool:
    """True when a key with ``scopes`` opens only once a second admin approves it."""
    return any(Scope(scope) in NEEDS_SECOND_ADMIN for scope in scopes)


def stage_key(name: str, scopes: list[str], expires_at: datetime | None,
              user_id: int | None, actor: Actor) -> IssuedKey:
    """Add a new key to the session (active, or awaiting approval when its scopes need a second
    admin) and audit it; the caller commits. ``KeyRefused`` for a name in use or no scope."""
    name = name.strip()
    if not name:
        raise KeyRefused("Give the key a name that says whose software uses it.", "name")
    if len(name) > NAME_MAX:
        raise KeyRefused(f"Keep the name under {NAME_MAX} characters.", "name")
    if db.session.scalar(select(ApiKey.id).where(ApiKey.name == name)) is not None:
        raise KeyRefused("Another key has this name; choose another.", "name")
    if not scopes:
        raise KeyRefused("Choose at least one thing the key may do.", "scopes")
    if expires_at is not None and expires_at <= clock.utcnow():
        raise KeyRefused("Choose an expiry in the future, or none.", "expires_at")
    lookup_id, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
    state = KeyState.AWAITING_APPROVAL if needs_second_admin(scopes) else KeyState.ACTIVE
    key = ApiKey(name=name, lookup_id=lookup_id, secret_hash=digest(secret),
                 scopes=sorted(scopes), state=state, expires_at=expires_at,
                 created_by_id=user_id, created_at=clock.utcnow())
    db.session.add(key)
    db.session.flush()
    record("api_key.create", actor=actor,
           detail={"key": key.id, "name": name, "scopes": key.scopes, "state": state})
    return IssuedKey(key, f"{PREFIX}_{lookup_id}_{secret}")


def authenticate(token: str, now: datetime) -> ApiKey | None:
    """The active, unexpired, unrevoked key ``token`` is, or None."""
    prefix, _, rest = token.partition("_")
    lookup_id, _, secret = rest.partition("_")
    if prefix != PREFIX or not lookup_id or not secret:
        return None
    key = db.session.scalar(select(ApiKey).where(ApiKey.lookup_id == lookup_id))
    if key is None or not hmac.compare_digest(key.secret_hash, digest(secret)):
        return None
    if (key.state != KeyState.ACTIVE or key.revoked_at is not None
            or (key.expires_at is not None and key.expires_at <= now)):
        return None
    return key


def note_use(key: ApiKey, now: datetime) -> None:
    """Keep when ``key`` was last used, at most once a minute (into the caller's commit)."""
    last = key.last_used_at
    if last is None or (now - last).total_seconds() >= LAST_USED_STEP_SECONDS:
        key.last_used_at = now


def revoke(key_id: int, actor: Actor) -> bool:
    """Revoke key ``key_id`` for good; False when it was revoked already."""
    done = db.session.execute(
        update(ApiKey).where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=clock.utcnow()).execution_options(synchronize_session=False))
    if done.rowcount == 1:
        record("api_key.revoke", actor=actor, detail={"key": key_id})
    db.session.commit()
    return done.rowcount == 1


def activate(key_id: int, actor: Actor) -> bool:
    """Open the API to a key a second admin approved (into the caller's commit). False when it
    no longer awaits approval (revoked meanwhile)."""
    done = db.session.execute(
        update(ApiKey).where(ApiKey.id == key_id, ApiKey.state == KeyState.AWAITING_APPROVAL,
                             ApiKey.revoked_at.is_(None))
        .values(state=KeyState.ACTIVE).execution_options(synchronize_session=False))
    if done.rowcount == 1:
        record("api_key.activate", actor=actor, detail={"key": key_id})
    return done.rowcount == 1


def every_key() -> list[ApiKey]:
    """Every key, newest first, for the keys page."""
    return list(db.session.scalars(select(ApiKey).order_by(ApiKey.created_at.desc(),
                                                           ApiKey.id.desc())))
