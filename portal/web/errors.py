"""Error handlers that answer JSON or HTML by Accept, every page in words; a 500 rolls back and
reveals nothing; an address only a form posts to, opened again (Back, a bookmark, a reload),
leads to its page.

A feature answering under a path of its own in a shape of its own (the API's problem
documents) names that path and its renderer in ``app.extensions[ERROR_RENDERERS]``."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
)
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, NotFound
from werkzeug.routing import RequestRedirect

from portal.core.db import db
from portal.gateway.tracing import request_id
from portal.web.error_words import words_for
from portal.web.http import wants_json

bp = Blueprint("errors", __name__)
#: Said on the page a reopened form address leads to.
REOPENED = "Nothing was done: that address is reached through a button on this page."

#: Where (in ``app.extensions``) path prefixes map to the renderer of their errors.
ERROR_RENDERERS = "portal_error_renderers"
#: A renderer: the status and the description to an answer.
Renderer = Callable[[int, str], Response]


def render_errors_under(extensions: dict[str, object], prefix: str, render: Renderer) -> None:
    """Let ``render`` answer every error of a path starting with ``prefix``."""
    renderers: dict[str, Renderer] = extensions.setdefault(ERROR_RENDERERS, {})  # type: ignore[assignment]
    renderers[prefix] = render


def _renderer() -> Renderer | None:
    """The renderer of the errors under the request's path, if a feature named one."""
    renderers: dict[str, Renderer] = current_app.extensions.get(ERROR_RENDERERS, {})
    return next((render for prefix, render in renderers.items()
                 if request.path.startswith(prefix)), None)


def _answer(error: HTTPException) -> ResponseReturnValue:
    code = error.code or 500
    render = _renderer()
    if render is not None:
        return render(code, str(error.description or error.name))
    if wants_json():
        return jsonify(error=error.name.lower().replace(" ", "_"), message=error.description,
                       reference=request_id.get()), code
    return render_template("errors/page.html", words=words_for(error)), code


def page_above(path: str) -> str | None:
    """The nearest address above ``path`` that a browser may open (``/payments/7`` for
    ``/payments/7/refund``), or None."""
    adapter = current_app.create_url_adapter(request)
    parts = path.rstrip("/").split("/")
    while adapter is not None and len(parts) > 1:
        parts.pop()
        candidate = "/".join(parts) or "/"
        try:
            adapter.match(candidate, method="GET")
        except RequestRedirect:
            return candidate  # the page is there under a trailing slash; it redirects itself
        except (NotFound, MethodNotAllowed):
            continue
        return candidate
    return None


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException) -> ResponseReturnValue:
    """403, 404, 405, CSRF failures and other HTTP errors. A browser's GET of an address only
    a form posts to goes to the page the form is on, saying nothing was done."""
    if (isinstance(error, MethodNotAllowed) and request.method in ("GET", "HEAD")
            and not wants_json() and _renderer() is None):
        above = page_above(request.path)
        if above is not None:
            flash(REOPENED, "warning")
            return redirect(above)
    return _answer(error)


@bp.app_errorhandler(InternalServerError)
def internal_error(error: InternalServerError) -> ResponseReturnValue:
    """Undo the failed request's database work and answer without details."""
    db.session.rollback()
    return _answer(InternalServerError())
