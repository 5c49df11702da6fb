"""Who looks after a merchant: admins give any merchant to anyone (or to nobody), ops take one
nobody owns, and an owner hands theirs to a colleague, with a note if they like.

Every change is one compare-and-set ``UPDATE ... WHERE owner_id IS <the owner the page
showed>``: two people acting on the same merchant at once never both win, and the one who
lost is told who owns it now. The new owner is told with a notice (unless they took it
themselves), and every change is audited.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm.attributes import set_committed_value

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.note import MerchantNote
from portal.core.models.notice import Notice, NoticeKind
from portal.core.models.user import Role, User
from portal.domain.audit.service import Actor, record
from portal.domain.ownership.notes import add_note


class OwnershipRefused(Exception):
    """The change is not allowed, or someone changed the owner first; the message says why in
    words, ``field`` names the form field it belongs beside."""

    def __init__(self, message: str, field: str = "owner") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Change:
    """What someone asks: ``owner_id`` (None: nobody) in place of ``expected_id``."""

    owner_id: int | None
    expected_id: int | None
    note: str = ""


def colleagues() -> list[User]:
    """Everyone who may own a merchant: the active users, by email."""
    return list(db.session.scalars(select(User).where(User.active.is_(True))
                                   .order_by(User.email)))


def users_by_id(ids: set[int | None]) -> dict[int, User]:
    """The users with these ids (any of them None is skipped), in one statement."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {u.id: u for u in db.session.scalars(select(User).where(User.id.in_(wanted)))}


def refusal(actor: User, merchant: Merchant, change: Change) -> str | None:
    """Why ``actor`` may not make ``change`` (by role, before anything is read), or None."""
    if actor.role == Role.ADMIN:
        return None
    if change.expected_id is None and change.owner_id == actor.id:
        return None  # taking a merchant nobody owns
    if change.expected_id == actor.id and change.owner_id not in (None, actor.id):
        return None  # handing one's own merchant to a colleague
    if change.expected_id is None:
        return "Only an admin can give a merchant nobody owns to someone else: take it yourself."
    return "Only its owner or an admin can hand this merchant to someone else."


def change_owner(merchant: Merchant, change: Change, actor: User) -> MerchantNote | None:
    """Make ``change.owner_id`` the owner if the merchant is still ``change.expected_id``'s
    and ``actor`` may; the note left with it (if any) is kept; audited; no commit.

    OwnershipRefused when the role does not allow it, the new owner cannot own merchants, or
    someone changed the owner first (the merchant is then left as they made it).
    """
    reason = refusal(actor, merchant, change)
    if reason:
        raise OwnershipRefused(reason)
    new_owner = db.session.get(User, change.owner_id) if change.owner_id is not None else None
    if change.owner_id is not None and (new_owner is None or not new_owner.active):
        raise OwnershipRefused("Choose someone whose account is active.")
    if change.owner_id == change.expected_id:
        raise OwnershipRefused("That is who owns it already: choose someone else.")
    expected = (Merchant.owner_id.is_(None) if change.expected_id is None
                else Merchant.owner_id == change.expected_id)
    moved = db.session.execute(
        update(Merchant).where(Merchant.id == merchant.id, expected)
        .values(owner_id=change.owner_id), execution_options={"synchronize_session": False})
    if moved.rowcount != 1:
        db.session.refresh(merchant)
        raise OwnershipRefused(taken_meanwhile(merchant))
    set_committed_value(merchant, "owner_id", change.owner_id)
    note = add_note(merchant, change.note, actor) if change.note.strip() else None
    if new_owner is not None and new_owner.id != actor.id:
        db.session.add_all(Notice.for_owner_of(merchant, NoticeKind.HANDOVER, by_user_id=actor.id,
                                               note_id=note.id if note else None))
    previous = db.session.get(User, change.expected_id) if change.expected_id else None
    record("merchant.owner", merchant_id=merchant.id, actor=Actor.of(actor),
           detail={"from": previous.email if previous else "",
                   "email": new_owner.email if new_owner else "nobody",
                   "note": note.id if note else None})
    return note


def taken_meanwhile(merchant: Merchant) -> str:
    """What someone whose change lost the race is told: who owns the merchant now."""
    owner = db.session.get(User, merchant.owner_id) if merchant.owner_id is not None else None
    now = f"{owner.email} owns it now" if owner else "nobody owns it now"
    return f"Someone changed the owner of this merchant while you were looking: {now}."
