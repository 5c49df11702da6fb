"""Owners named by a bulk import's ``owner`` column (an email): checked with the rest of the
file before anything is sent, then given to each merchant its row starts or resumes, as the
importing admin (audited, the new owner told)."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.user import User
from portal.domain.audit.service import Actor, record
from portal.domain.users.accounts import normalize_email


def active_owners(emails: Iterable[str]) -> dict[str, int]:
    """The ids of the active users among ``emails`` (any case), by lower-case email; one
    statement."""
    wanted = {normalize_email(email) for email in emails if email.strip()}
    if not wanted:
        return {}
    rows = db.session.execute(select(User.email, User.id).where(
        User.email.in_(wanted), User.active.is_(True)))
    return {email: user_id for email, user_id in rows}


def unknown_owner(email: str) -> str:
    """Why a row's owner cannot be used, in words."""
    return f"No active user of the portal has the email {email.strip()}: add them on the Team page"


def give_to(merchant: Merchant, email: str, actor: Actor) -> None:
    """Make the active user with ``email`` the merchant's owner, unless they are already (or
    the email names nobody active any more); audited as ``actor``; no commit."""
    owner_id = active_owners([email]).get(normalize_email(email))
    if owner_id is None or owner_id == merchant.owner_id:
        return
    previous = db.session.get(User, merchant.owner_id) if merchant.owner_id else None
    merchant.owner_id = owner_id
    db.session.flush()
    if owner_id != actor.id:
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.HANDOVER, by_user_id=actor.id))
    record("merchant.owner", merchant_id=merchant.id, actor=actor, detail={
        "from": previous.email if previous else "", "email": normalize_email(email),
        "note": None, "import": True})
