"""The partner's portfolio (parent MID) key: one key pair that signs for every sub-merchant whose
credentials choose it, as the official Python SDK signs with ``glocalMerchant.parentMid``.

There is at most one; replacing it moves every sub-merchant to the new key at once. In sandbox
mode the key is registered with the sandbox together with the MIDs it signs for.
"""

from __future__ import annotations

from sqlalchemy import select

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.payment import PaymentCredentials, PortfolioKey
from portal.domain.audit.service import Actor, record
from portal.domain.payments.credentials import (
    CredentialsError,
    SavedKey,
    key_material,
    portfolio_key,
    register_key,
)


def members(key: PortfolioKey) -> list[tuple[Merchant, str]]:
    """The merchants signing with ``key`` and their (sub-merchant) MIDs, by name."""
    rows = db.session.execute(
        select(Merchant, PaymentCredentials.mid)
        .join(PaymentCredentials, PaymentCredentials.merchant_id == Merchant.id)
        .where(PaymentCredentials.portfolio_key_id == key.id)
        .order_by(Merchant.display_name, Merchant.id))
    return [(merchant, mid) for merchant, mid in rows]


def save_portfolio_key(settings: Settings, parent_mid: str, kid: str, imported_pem: str | None,
                       user_id: int | None, replace: bool = False, *, actor: Actor) -> SavedKey:
    """Store the portfolio key (generated, or imported from ``imported_pem``); replacing the
    current one takes ``replace``. Audited as ``actor``'s."""
    key = portfolio_key()
    replaced = key is not None
    if replaced and not replace:
        raise CredentialsError("Tick the box to replace the portfolio key.")
    material = key_material(settings, imported_pem)
    if key is None:
        key = PortfolioKey()
        db.session.add(key)
    key.parent_mid = parent_mid
    key.kid = kid
    key.public_key_pem = material.public_key_pem
    key.private_key_encrypted = material.private_key_encrypted
    key.origin = material.origin
    key.created_by_id = user_id
    record("payments.portfolio_key", actor=actor, detail={
        "parent_mid": parent_mid, "kid": kid, "origin": key.origin, "replaced": replaced})
    db.session.commit()
    registered = register_portfolio(settings, key) if settings.gateway_is_sandbox else None
    return SavedKey(key.origin, registered)


def register_portfolio(settings: Settings, key: PortfolioKey) -> bool:
    """Register the key with the sandbox, with every sub-merchant MID it signs for."""
    return register_key(settings, key.parent_mid, key.kid, key.public_key_pem,
                        [mid for _, mid in members(key)])
