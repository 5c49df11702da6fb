"""Request helpers shared by features: content negotiation and ids taken from URLs."""

from __future__ import annotations

from flask import request
from werkzeug.routing import IntegerConverter, Map

#: The largest id a row can have (PostgreSQL's INTEGER); a larger number names no row.
MAX_ROW_ID = 2**31 - 1


def wants_json() -> bool:
    """True when the client prefers JSON to HTML (API calls, fetch())."""
    if request.is_json:
        return True
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == (
        "application/json")


class RowIdConverter(IntegerConverter):
    """``<int:...>`` in every route: a number a row id can be, so a 30-digit id is a 404
    instead of an integer overflow in the database."""

    def __init__(self, url_map: Map, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("max", MAX_ROW_ID)
        super().__init__(url_map, *args, **kwargs)


def is_row_id(text: str) -> bool:
    """True when ``text`` (from a query string) is plain digits naming a possible row id."""
    return text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ROW_ID)) and (
        1 <= int(text) <= MAX_ROW_ID)
