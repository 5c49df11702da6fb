"""The administrator role: taking it away never leaves the portal without an active admin,
and giving it records who gave it.

The guard is in the statement itself: one conditional UPDATE that changes the account only when
another active admin remains. On PostgreSQL the statement first locks every active admin's row
(a ``FOR UPDATE`` CTE), so two admins demoting or deactivating each other at once are taken one
after the other and the second sees the first's change (a plain count would let both pass, each
counting the other); SQLite has one writer at a time, and the statement reads the count under it.
Functions take plain arguments; the caller commits.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import CTE, ColumnElement, exists, func, or_, select, update

from portal.core.db import db
from portal.core.models import Role, User

ADMIN = Role.ADMIN.value


def _active_admins() -> CTE:
    """Every active admin's id, their rows locked until the caller commits (PostgreSQL)."""
    return (select(User.id).where(User.role == ADMIN, User.active.is_(True)).order_by(User.id)
            .with_for_update().cte("active_admins"))


def _leaves_an_admin(admins: CTE) -> ColumnElement[bool]:
    """The changed row is not an active admin, or another active admin remains."""
    others = select(func.count()).select_from(admins).scalar_subquery()
    return or_(User.role != ADMIN, User.active.is_(False), others >= 2)


def _guarded(user_id: int, *where: ColumnElement[bool], **values: Any) -> bool:
    admins = _active_admins()
    changed = db.session.execute(
        update(User).add_cte(admins).where(User.id == user_id, *where, _leaves_an_admin(admins))
        .values(**values).execution_options(synchronize_session=False))
    return changed.rowcount == 1


def demote(user_id: int) -> bool:
    """Make an admin an operations user, unless no other active admin would remain."""
    return _guarded(user_id, User.role == ADMIN, role=Role.OPS.value)


def deactivate(user_id: int) -> bool:
    """Stop an active user's sign-ins, unless they are the last active admin."""
    return _guarded(user_id, User.active.is_(True), active=False)


def promote(user_id: int, by_id: int | None) -> bool:
    """Make an operations user an admin, noting who did (``by_id``)."""
    changed = db.session.execute(
        update(User).where(User.id == user_id, User.role == Role.OPS.value)
        .values(role=ADMIN, promoted_by_id=by_id).execution_options(synchronize_session=False))
    return changed.rowcount == 1


def another_active_admin(user_id: int) -> bool:
    """True when an active admin other than ``user_id`` exists (a second person to ask)."""
    return db.session.scalar(select(exists().where(
        User.role == ADMIN, User.active.is_(True), User.id != user_id))) or False
