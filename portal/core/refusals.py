"""A refusal in words that names the form field it belongs to, for the page to show it there."""

from __future__ import annotations


class FieldRefused(Exception):
    """Something asked cannot be done; ``message`` says why in words, ``field`` names the form
    field it belongs to ('' for the whole form)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
