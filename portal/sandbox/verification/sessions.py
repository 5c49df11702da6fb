"""Verification-page sessions: opening the link uses its token up and starts a session.

The link's token is single-use: the first GET consumes it, and the page goes on with an opaque
random session id carried in a hidden form field (a cookie would be a third-party cookie inside
the partner's iframe, which browsers may drop). A session lasts as long as its token would have
(24 hours from issue) and ends early when the person closes the page. A second GET of the same
link, an expired link and a closed session are refused with a page that says so.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from portal.core.clock import Clock
from portal.gateway.onboarding.events import origin_of
from portal.sandbox.common import snapshots
from portal.sandbox.onboarding.backend import OnboardingBackend

ASK_AGAIN = "Ask the partner for a new verification link."


class PageRefused(Exception):
    """The page cannot go on: a message, an HTTP status, the origin that may frame the answer."""

    def __init__(self, message: str, status: int, target_origin: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.target_origin = target_origin


@dataclass
class VerificationSession:
    """One person's pass through the page, bound to the token that opened it."""

    session_id: str
    onboarding_id: str
    target_origin: str
    expires_at: datetime
    #: The callBackUrl: where a page opened outside the frame (DigiLocker) sends the person back.
    return_url: str = ""
    closed: bool = False


_SESSIONS = TypeAdapter(list[VerificationSession])


class VerificationSessions:
    """Resettable, thread-safe store of verification-page sessions."""

    def __init__(self, backend: OnboardingBackend, clock: Clock) -> None:
        self._backend = backend
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, VerificationSession] = {}

    def reset(self) -> None:
        """Forget every session."""
        with self._lock:
            self._sessions.clear()

    def snapshot(self) -> dict[str, Any]:
        """The open sessions as JSON, so a person mid-way goes on after a restart."""
        with self._lock:
            return {"sessions": snapshots.dump(_SESSIONS, list(self._sessions.values()))}

    def restore(self, data: dict[str, Any]) -> None:
        """Take back what :meth:`snapshot` kept."""
        sessions = snapshots.load(_SESSIONS, data.get("sessions", []))
        with self._lock:
            self._sessions = {session.session_id: session for session in sessions}

    def start(self, token: str, onboarding_id: str) -> VerificationSession:
        """Use the link's token up and open a session; PageRefused if the link cannot be used."""
        found = self._backend.find_token(token)
        if found is None or found.onboarding_id != onboarding_id:
            raise PageRefused(f"This verification link is not valid. {ASK_AGAIN}", 404)
        origin = origin_of(found.callback_url)
        if self._backend.consume_token(token) is None:
            if found.used:
                raise PageRefused(f"This verification link was already used. {ASK_AGAIN}", 410,
                                  origin)
            raise PageRefused(f"This verification link has expired. {ASK_AGAIN}", 410, origin)
        session = VerificationSession(secrets.token_urlsafe(32), onboarding_id, origin,
                                      found.expires_at, found.callback_url)
        with self._lock:
            self._sessions[session.session_id] = session
        return session

    def get(self, session_id: str) -> VerificationSession:
        """The open session with this id; PageRefused if it is unknown, expired or closed."""
        with self._lock:
            session = self._sessions.get(session_id)
        if session is None:
            raise PageRefused(f"This verification session is not valid. {ASK_AGAIN}", 403)
        if session.closed:
            raise PageRefused(f"This verification session was closed. {ASK_AGAIN}", 410,
                              session.target_origin)
        if self._clock.now() >= session.expires_at:
            raise PageRefused(f"This verification session has expired. {ASK_AGAIN}", 410,
                              session.target_origin)
        return session

    def close(self, session: VerificationSession) -> None:
        """End a session: the page cannot be used with it any more."""
        with self._lock:
            session.closed = True
