"""What someone typed is kept when their post is refused because their session (or its CSRF
token) expired, and given back on the same page once they are signed in again.

Only views marked ``@keeps_typing`` have their posts held, only posts from the portal's own
pages (Origin, else Referer): another site cannot plant values in someone's form, and only for
a session the server recorded, so every held post has its owner: an anonymous post is never
stored. A post is held only up to HOLD_MAX_CHARACTERS of typing, and a user has at most
HOLDS_PER_USER at once (the oldest go). It is stored for HOLD_MINUTES under a random token that
the browser's session carries through the sign-in; the page claims it once, for the same path,
and only when its owner is the one signed in. Nothing held is ever saved by itself: the page
shows it to be saved again.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import current_app, flash, request, session
from flask_login import current_user
from sqlalchemy import delete, select
from werkzeug.datastructures import MultiDict

from portal.core import clock
from portal.core.db import db
from portal.core.models.held_form import HeldForm

View = TypeVar("View", bound=Callable[..., Any])

#: How long a refused post waits for its author to sign in again.
HOLD_MINUTES = 30
#: The session key of the token that claims the held post (kept through sign-in).
SESSION_KEY = "held_form"
KEEPS_TYPING = "portal_keeps_typing"
#: Posted fields never held: the refused token itself.
NOT_HELD = frozenset({"csrf_token"})
#: The most typing (names and values, in characters) a held post keeps; a wizard step is a few
#: thousand at most. A larger post is not held, and the page says so.
HOLD_MAX_CHARACTERS = 64 * 1024
#: Held posts kept per user at once (several tabs); a new one pushes the oldest out.
HOLDS_PER_USER = 3


def keeps_typing(view: View) -> View:
    """Hold ``view``'s refused posts; its GET must show them again (see ``claim``)."""
    setattr(view, KEEPS_TYPING, True)
    return view


def holdable() -> bool:
    """True for a post from one of our pages to a view that keeps typing."""
    view = current_app.view_functions.get(request.endpoint or "")
    return (request.method == "POST" and getattr(view, KEEPS_TYPING, False)
            and _same_origin())


def hold(user_id: int) -> bool:
    """Keep the current post for ``user_id``, whose recorded session sent it; False when it is
    too large to keep (nothing is stored then)."""
    fields = [[name, value] for name, value in request.form.items(multi=True)
              if name not in NOT_HELD]
    if sum(len(name) + len(value) for name, value in fields) > HOLD_MAX_CHARACTERS:
        return False
    now = clock.utcnow()
    db.session.execute(delete(HeldForm).where(HeldForm.expires_at < now))
    newest = (select(HeldForm.id).where(HeldForm.user_id == user_id)
              .order_by(HeldForm.id.desc()).limit(HOLDS_PER_USER - 1))
    db.session.execute(delete(HeldForm).where(HeldForm.user_id == user_id,
                                              HeldForm.id.not_in(newest)))
    token = secrets.token_urlsafe(32)
    db.session.add(HeldForm(token_hash=_digest(token), user_id=user_id, path=request.path,
                            fields=fields, expires_at=now + timedelta(minutes=HOLD_MINUTES)))
    db.session.commit()
    session[SESSION_KEY] = token
    return True


def claim(path: str) -> MultiDict[str, Any] | None:
    """The post held for ``path`` and the signed-in user, its owner, once; None when there is
    none (another user signed in on that browser never gets it)."""
    token = session.get(SESSION_KEY)
    if not token or not current_user.is_authenticated:
        return None
    held = db.session.scalar(select(HeldForm).where(HeldForm.token_hash == _digest(token)))
    if held is None or held.expires_at < clock.utcnow():
        session.pop(SESSION_KEY, None)
        return None
    if held.path != path or held.user_id != current_user.id:
        return None
    session.pop(SESSION_KEY, None)
    db.session.delete(held)
    db.session.commit()
    return MultiDict([(name, value) for name, value in held.fields])


def carried_token() -> str | None:
    """The session's claim token, to carry into the session that sign-in starts."""
    token = session.get(SESSION_KEY)
    return token if isinstance(token, str) else None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _same_origin() -> bool:
    """The post came from a page of this portal (Origin, or Referer where Origin is absent)."""
    source = request.headers.get("Origin") or request.headers.get("Referer") or ""
    parts = urlsplit(source)
    return bool(parts.netloc) and f"{parts.scheme}://{parts.netloc}" == request.host_url.rstrip("/")


def held_typing() -> dict[str, MultiDict[str, Any]]:
    """On a GET, a form's ``formdata``: what was typed here before a sign-out refused it (see
    auth.held_forms); else nothing, so the form reads the post or its data as usual."""
    typed = claim(request.path) if request.method == "GET" else None
    if typed is None:
        return {}
    flash("This is what you typed before you were signed out. Nothing of it is saved yet: "
          "check it and save again.", "warning")
    return {"formdata": typed}
