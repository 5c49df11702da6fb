"""The partner's logo upload, judged by what the file holds (never its name) and its size."""

from __future__ import annotations

from typing import BinaryIO

import filetype

from portal.domain.documents.service import size_text

#: The logo's types and how the settings page names them; SVG is refused (it can hold script).
LOGO_TYPES = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WebP"}
#: A logo is shown small; this is plenty, keeps every page view light and the upload in memory.
LOGO_MAX_BYTES = 200 * 1024


def read_logo(stream: BinaryIO) -> tuple[bytes, str, str]:
    """The file's bytes and content type, and "" or why it is refused, in words."""
    data = stream.read(LOGO_MAX_BYTES + 1)
    if not data:
        return b"", "", "The file is empty: choose the logo's image file."
    if len(data) > LOGO_MAX_BYTES:
        return b"", "", (f"The logo is larger than the limit of {size_text(LOGO_MAX_BYTES)}; "
                         "save it smaller (a few hundred pixels wide is enough).")
    kind = filetype.guess(data[:8192])
    if kind is None or kind.mime not in LOGO_TYPES:
        names = ", ".join(LOGO_TYPES.values())
        return b"", "", f"The logo must be an image: {names}. This file is not one of them."
    return data, kind.mime, ""
