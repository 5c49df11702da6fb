"""Oversize uploads answered with a page, not a reset connection.

A server that answers before it has read the request body, as Flask does with a 413 for a
body over MAX_CONTENT_LENGTH, closes a socket the browser is still writing to: the browser
shows "connection reset" instead of the answer. Views marked ``@reads_oversize_uploads``
therefore read a body of up to DISCARD_LIMIT whole, keep only the first
``upload_max_bytes + 1`` bytes of each file (enough for the view to see that it is too large)
and drop the rest as it arrives, so memory stays bounded and the view answers normally.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from typing import IO, Any, TypeVar

from flask import Request, current_app

from portal.core.config import current_settings

View = TypeVar("View", bound=Callable[..., Any])

#: Bodies up to this size are read (and their excess dropped); larger ones get a bare 413.
DISCARD_LIMIT = 128 * 1024 * 1024
#: Files kept in memory up to this size, then on disk (as werkzeug does).
SPOOL_BYTES = 500 * 1024
READS_OVERSIZE = "portal_reads_oversize_uploads"


def reads_oversize_uploads(view: View) -> View:
    """Let ``view`` see oversize files (cut short) instead of Flask's 413."""
    setattr(view, READS_OVERSIZE, True)
    return view


class CappedFile:
    """A spooled temporary file that keeps the first ``cap`` bytes written and drops the rest."""

    def __init__(self, cap: int) -> None:
        self._file = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="rb+")  # noqa: SIM115
        self._room = cap

    def write(self, data: bytes) -> int:
        """Keep what still fits; report everything as written so parsing goes on."""
        kept = data[:max(self._room, 0)]
        self._room -= len(kept)
        self._file.write(kept)
        return len(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


class PortalRequest(Request):
    """Flask's request; on views marked ``@reads_oversize_uploads`` bodies are read whole."""

    @property
    def max_content_length(self) -> int | None:  # type: ignore[override]
        """DISCARD_LIMIT on marked views, else Flask's (MAX_CONTENT_LENGTH or as set)."""
        if self._max_content_length is None and self._reads_oversize():
            return DISCARD_LIMIT
        return Request.max_content_length.fget(self)  # type: ignore[attr-defined]

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value

    def _get_file_stream(self, total_content_length: int | None, content_type: str | None,
                         filename: str | None = None,
                         content_length: int | None = None) -> IO[bytes]:
        if self._reads_oversize():
            return CappedFile(current_settings().upload_max_bytes + 1)  # type: ignore[return-value]
        return super()._get_file_stream(total_content_length, content_type, filename,
                                        content_length)

    def _reads_oversize(self) -> bool:
        view = current_app.view_functions.get(self.endpoint or "") if current_app else None
        return bool(getattr(view, READS_OVERSIZE, False))
