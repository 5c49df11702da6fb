"""Why a signed-in session ended, in the words the sign-in page shows after it held a post.

A session ends for one of four reasons, and the person deserves to know which: idle past the
timeout, past its absolute lifetime, signed out on the server (another window's sign-out, a
password change, a deactivation or a reset), or the browser no longer sent the session at all
(it drops the cookie when closed, or when its cookies are cleared).
"""

from __future__ import annotations

from enum import StrEnum

#: Where (in ``flask.g``) the request notes why its session ended.
ENDING = "session_ending"
#: The session's sign-in time (epoch seconds), kept in the signed cookie to tell the reasons apart.
SIGNED_IN_KEY = "signed_in_at"
HOUR = 3600.0


class Ending(StrEnum):
    """Why a session ended."""

    IDLE = "idle"
    TOO_OLD = "too old"
    SIGNED_OUT = "signed out"
    NO_SESSION = "no session"


def ending_of(*, recorded: bool, last_seen: float | None, signed_in_at: float | None,
              now: float, idle_minutes: int, max_hours: int) -> Ending:
    """Why a session the cookie still names ended: ``recorded`` says whether the server still
    holds it for an active user; the times are epoch seconds from the cookie."""
    if signed_in_at is not None and now - signed_in_at >= max_hours * HOUR:
        return Ending.TOO_OLD
    if not recorded:
        return Ending.SIGNED_OUT
    if last_seen is None or now - last_seen > idle_minutes * 60:
        return Ending.IDLE
    return Ending.SIGNED_OUT


def words(ending: Ending, idle_minutes: int, max_hours: int, *,
          kept: bool | None = True) -> str:
    """What the sign-in page says about a post after the session ended: held (``kept``), too
    long to keep (False), or not held because no recorded session of anyone sent it (None)."""
    why = {
        Ending.IDLE: f"Your session ended after {idle_minutes} idle minutes",
        Ending.TOO_OLD: f"Your session ended {max_hours} hours after you signed in (the "
                        "longest a session lasts)",
        Ending.SIGNED_OUT: "You were signed out (in another window, or because your password "
                           "or your access changed)",
        Ending.NO_SESSION: "You were no longer signed in: your browser did not send your "
                           "session (it forgets it when it is closed, or when its cookies are "
                           "cleared)",
    }[ending]
    if kept is None:
        return (f"{why}, so nothing was saved, and what you typed could not be kept for you. "
                "Sign in and type it again.")
    if not kept:
        return (f"{why}, so nothing was saved, and what you sent was too long to keep. Sign in "
                "again and type it again.")
    return (f"{why}, so nothing was saved. Sign in again to get back to the page with what "
            "you typed.")
