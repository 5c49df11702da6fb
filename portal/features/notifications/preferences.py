"""How each user is emailed their notices: each at once, or a daily digest (their choice, on
their account page); audited."""

from __future__ import annotations

from portal.core.models.user import User
from portal.domain.audit.service import Actor, record

IMMEDIATE = "immediate"
DIGEST = "digest"
#: Each choice as the account page offers it.
CHOICES = {
    IMMEDIATE: "Email me each notice at once",
    DIGEST: "Email me one digest a day",
}


def choose(user: User, mode: str) -> bool:
    """Make ``mode`` the user's choice; True if it changed (then audited); no commit."""
    if mode not in CHOICES:
        raise ValueError(f"unknown notice mode {mode!r}")
    if user.notice_mode == mode:
        return False
    user.notice_mode = mode
    record("user.notice_mode", actor=Actor.of(user), detail={"mode": mode})
    return True
