"""The sandbox's hosted verification page, embedded by the partner in an iframe.

``GET /verification?token=…&onboardingId=…`` uses the link up and shows the current step; each
step's form posts back to ``POST /verification`` with the session id. A page that completes a
step carries the messages for the parent window in ``data-messages`` and the callBackUrl's origin
in ``data-target-origin``; ``static/verification.js`` posts them on load.

Every answer forbids inline script (``script-src 'self'``; the one inline style block has a
nonce) and may be framed only by the callBackUrl's origin (``frame-ancestors``).

For records in the iframe docs' dialect (``portal.sandbox.verification.flow``), the DigiLocker
step is a page of its own, ``/verification/digilocker?session=…``, opened top-level by the
partner on the frame's REDIRECT message; it may not be framed at all, and after the consent it
sends the person back to the callBackUrl (registered with the link, never taken from the
request), where the partner's page asks for a fresh link and the frame resumes at video KYC.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for

from portal.gateway.onboarding.events import MessageName, origin_of
from portal.sandbox.onboarding.backend import OnboardingBackend
from portal.sandbox.verification.flow import (
    CONFIRMATIONS,
    TICKED,
    Action,
    Outcome,
    Step,
    page_state,
    perform,
)
from portal.sandbox.verification.messages import redirect_message
from portal.sandbox.verification.messages import verification_message as message
from portal.sandbox.verification.sessions import (
    PageRefused,
    VerificationSession,
    VerificationSessions,
)

PAGE_PATH = "/verification"
DIGILOCKER_PATH = f"{PAGE_PATH}/digilocker"


def content_security_policy(nonce: str, target_origin: str | None,
                            return_origin: str = "") -> str:
    """The page's CSP: own scripts only, one nonced style block, framed by the partner only.

    ``return_origin``: where a form of the page may be redirected to after it is posted.
    """
    return "; ".join([
        "default-src 'none'",
        "script-src 'self'",
        f"style-src 'nonce-{nonce}'",
        " ".join(["form-action 'self'", return_origin]).strip(),
        "base-uri 'none'",
        "frame-ancestors " + (target_origin or "'none'"),
    ])


def render_page(template: str, status: int, target_origin: str | None,
                return_origin: str = "", **context: Any) -> Response:
    """Render a verification template with the security headers it needs."""
    nonce = secrets.token_urlsafe(16)
    html = render_template(template, nonce=nonce, target_origin=target_origin or "", **context)
    response = Response(html, status=status, mimetype="text/html")
    response.headers["Content-Security-Policy"] = content_security_policy(
        nonce, target_origin, return_origin)
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"
    return response


def verification_blueprint(backend: OnboardingBackend,
                           sessions: VerificationSessions) -> Blueprint:
    """The verification page over ``backend``'s records and ``sessions``."""
    bp = Blueprint("sandbox_verification", __name__, static_folder="static",
                   static_url_path=f"{PAGE_PATH}/static")

    @bp.errorhandler(PageRefused)
    def _refused(error: PageRefused) -> Response:
        return render_page("verification/refused.html", error.status, error.target_origin,
                           message=error.message)

    def step_page(session: VerificationSession, outcome: Outcome) -> Response:
        state = page_state(backend, session.onboarding_id)
        messages = list(outcome.messages)
        digilocker_url = ""
        if state.step is Step.DIGILOCKER and state.digilocker_outside:
            digilocker_url = url_for("sandbox_verification.digilocker", _external=True,
                                     session=session.session_id)
            messages.append(redirect_message(digilocker_url))
        return render_page("verification/page.html", outcome.status, session.target_origin,
                           session=session, state=state, messages=messages,
                           errors=outcome.errors, Action=Action, confirmations=CONFIRMATIONS,
                           ticked=TICKED, digilocker_url=digilocker_url)

    def digilocker_page(session: VerificationSession, outcome: Outcome) -> Response:
        return render_page("verification/digilocker.html", outcome.status, None,
                           origin_of(session.return_url), session=session,
                           errors=outcome.errors, Action=Action,
                           confirmation=CONFIRMATIONS[Action.DIGILOCKER], ticked=TICKED)

    @bp.get(PAGE_PATH)
    def open_link() -> Response:
        """Use the link's token up and show the current step (a HEAD probe uses nothing up)."""
        if request.method == "HEAD":
            return Response(status=200)
        session = sessions.start(request.args.get("token", ""),
                                 request.args.get("onboardingId", ""))
        return step_page(session, Outcome())

    @bp.post(PAGE_PATH)
    def press() -> Response:
        """Carry out the pressed button and show the step that follows."""
        session = sessions.get(request.form.get("session", ""))
        action = request.form.get("action", "")
        if action == Action.CLOSE:
            sessions.close(session)
            return render_page("verification/closed.html", 200, session.target_origin,
                               messages=[message(MessageName.CLOSED, session.onboarding_id)])
        return step_page(session, perform(backend, session.onboarding_id, action, request.form))

    @bp.get(DIGILOCKER_PATH)
    def digilocker() -> Response:
        """DigiLocker consent outside the frame, opened top-level on the REDIRECT message."""
        return digilocker_page(sessions.get(request.args.get("session", "")), Outcome())

    @bp.post(DIGILOCKER_PATH)
    def digilocker_consent() -> Response:
        """Record the consent and send the person back to the partner's page."""
        session = sessions.get(request.form.get("session", ""))
        outcome = perform(backend, session.onboarding_id, Action.DIGILOCKER, request.form)
        if outcome.errors:
            return digilocker_page(session, outcome)
        return redirect(session.return_url, 303)

    return bp
