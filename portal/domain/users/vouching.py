"""Who vouched for an account: the admin who added it, who made it an administrator, who last
gave it a one-time password. Each of them could have held its credentials, so the account's
approval of their own request would not be a second person's (``portal.features.approvals``)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, exists, or_

from portal.core.models import User


def _vouchers() -> tuple[ColumnElement[int | None], ...]:
    return User.created_by_id, User.promoted_by_id, User.password_issued_by_id


def vouched_for(account_id: int | ColumnElement[int],
                by: ColumnElement[int | None]) -> ColumnElement[bool]:
    """SQL: the admin ``by`` (a column, e.g. a request's asker) vouched for ``account_id``."""
    return exists().where(User.id == account_id, or_(*(column == by for column in _vouchers())))


def vouchers_of(account: User) -> set[int]:
    """The ids of the admins who vouched for ``account``."""
    found = (account.created_by_id, account.promoted_by_id, account.password_issued_by_id)
    return {user_id for user_id in found if user_id is not None}
