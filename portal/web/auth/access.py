"""Who may reach a view: deny anonymous users by default, ``@public`` opts out, roles narrow."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import abort, current_app, flash, g, jsonify, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from portal.core.config import current_settings
from portal.domain.audit.service import SYSTEM, Actor
from portal.web.auth import held_forms, session_end
from portal.web.http import wants_json

View = TypeVar("View", bound=Callable[..., Any])

PUBLIC_ATTRIBUTE = "portal_public"
#: Where (in ``g``) the id of a user whose idle session was just ended is noted (only when the
#: server had recorded that session, so it knows whose it was).
ENDED_USER = "ended_user_id"


def current_actor(otherwise: Actor = SYSTEM) -> Actor:
    """Who acts in this request, for the audit trail: the signed-in user, else ``otherwise``
    (a merchant's link, a webhook, someone not signed in)."""
    return Actor.of(current_user) if current_user.is_authenticated else otherwise


def public(view: View) -> View:
    """Let anonymous users reach ``view`` (sign-in page, health check, merchant links)."""
    setattr(view, PUBLIC_ATTRIBUTE, True)
    return view


def is_public(endpoint: str | None) -> bool:
    """True for static files and views marked ``@public``."""
    if endpoint is None:
        return True  # no route matched: the 404/405 handler answers
    if endpoint == "static" or endpoint.endswith(".static"):
        return True
    view = current_app.view_functions.get(endpoint)
    return getattr(view, PUBLIC_ATTRIBUTE, False)


def deny_anonymous() -> ResponseReturnValue:
    """401 for JSON clients, otherwise a redirect to the sign-in page that returns here; a post
    from a session that just went idle is held for its owner first (never an anonymous one)."""
    if wants_json():
        return jsonify(error="unauthorized", message="Sign in first."), 401
    if not held_forms.holdable():
        return sign_in_first()
    owner = g.get(ENDED_USER)
    return session_ended(kept=held_forms.hold(owner) if isinstance(owner, int) else None)


def sign_in_first() -> ResponseReturnValue:
    """To the sign-in page, which then returns here."""
    flash("Please sign in to continue.", "info")
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


def session_ended(*, kept: bool | None) -> ResponseReturnValue:
    """To the sign-in page, saying why the session ended and whether the post was held (to be
    shown on this page again): ``kept`` False when it was too long, None when nobody's recorded
    session sent it (a session signed out on the server, or none at all), so it was not held."""
    settings = current_settings()
    ending = g.get(session_end.ENDING, session_end.Ending.NO_SESSION)
    flash(session_end.words(ending, settings.session_idle_minutes, settings.session_max_hours,
                            kept=kept), "warning" if kept else "error")
    return redirect(url_for("auth.login", next=request.path))


def require_login() -> ResponseReturnValue | None:
    """App-wide guard: anonymous requests only reach public views."""
    if current_user.is_authenticated or is_public(request.endpoint):
        return None
    return deny_anonymous()


def roles_required(*roles: str) -> Callable[[View], View]:
    """Only signed-in users holding one of ``roles`` (any role if none given); others get 403."""

    def decorator(view: View) -> View:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                return deny_anonymous()
            if roles and not current_user.has_role(*roles):
                abort(403)
            return view(*args, **kwargs)

        return guarded  # type: ignore[return-value]

    return decorator


def login_required(view: View) -> View:
    """Only signed-in users (the app-wide guard already insists; this states it at the view)."""
    return roles_required()(view)
