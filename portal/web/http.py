"""Request helpers shared by features: content negotiation, ids taken from URLs, and which
views take a JSON body."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import abort, current_app, request
from werkzeug.routing import IntegerConverter, Map

from portal.core.db import MAX_ROW_ID

View = TypeVar("View", bound=Callable[..., Any])

RAW_BODY_ATTRIBUTE = "portal_reads_raw_body"
#: Methods whose body flask-wtf reads as a form (and, lacking one, as JSON).
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def wants_json() -> bool:
    """True when the client prefers JSON to HTML (API calls, fetch())."""
    if request.is_json:
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == (
        "application/json")


class RowIdConverter(IntegerConverter):
    """``<int:...>`` in every route: a number a row id can be, so a 30-digit id is a 404
    instead of an integer overflow in the database.

    The pattern stops at MAX_ROW_ID's length, so a longer number matches no route whatever the
    method (a converter's refusal alone would make a POST a 405); ``max`` refuses the rest.
    """

    regex = f"[0-9]{{1,{len(str(MAX_ROW_ID))}}}"

    def __init__(self, url_map: Map, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("max", MAX_ROW_ID)
        super().__init__(url_map, *args, **kwargs)


def is_row_id(text: str) -> bool:
    """True when ``text`` (from a query string) is plain digits naming a possible row id."""
    return text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ROW_ID)) and (
        1 <= int(text) <= MAX_ROW_ID)


def reads_raw_body(view: View) -> View:
    """Let ``view`` take a JSON body: it reads ``request.get_data()`` itself (webhooks)."""
    setattr(view, RAW_BODY_ATTRIBUTE, True)
    return view


def refuse_json_for_forms() -> None:
    """Before each request: a JSON body sent where a form is expected is a 400. flask-wtf
    would read it as the form's fields, and a JSON list or deep nesting there fails inside it.
    No route matched: the 404 or 405 answers instead."""
    if request.method in BODY_METHODS and request.is_json and request.endpoint is not None:
        view = current_app.view_functions.get(request.endpoint)
        if not getattr(view, RAW_BODY_ATTRIBUTE, False):
            abort(400, "This address takes a form, not JSON.")
