"""The document upload's body, checked in bounded memory.

Its Base64 content stays in the spooled body (:mod:`portal.sandbox.onboarding.streamed_json`) and is
checked a chunk at a time, never decoded whole: the characters, the padding of the last group
and the decoded size. The shared shape then checks the body with that last group standing in
for the content, so every rule and message on the other fields stays the shape's own.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
from typing import Any

from portal.gateway.onboarding.requests import DOCUMENT_CONTENT, DocumentUploadRequest
from portal.gateway.shapes import FieldError, validate_payload
from portal.sandbox.onboarding.streamed_json import SpilledString

#: The operation whose body is read this way.
OPERATION = "upload_document"
#: Base64 characters checked at a time (a multiple of 4).
CHECK_CHUNK = 64 * 1024
#: Room in a body for everything but the Base64.
ENVELOPE_BYTES = 64 * 1024
_ALPHABET = re.compile(rb"[A-Za-z0-9+/]*")


def body_limit(max_document_bytes: int) -> int:
    """The largest upload body read: the Base64 of the largest document, and the rest."""
    return (max_document_bytes + 2) // 3 * 4 + ENVELOPE_BYTES


def validated_upload(payload: Any, max_document_bytes: int
                     ) -> tuple[DocumentUploadRequest | None, list[FieldError]]:
    """The upload request and its errors, as ``validate_payload`` gives them; a long content
    is checked from the spooled body, no larger than ``max_document_bytes`` decoded."""
    content = payload.get(DOCUMENT_CONTENT) if isinstance(payload, dict) else None
    if not isinstance(content, SpilledString):
        return validate_payload(DocumentUploadRequest, payload)
    if content.escaped:  # JSON escapes in Base64 are legal, and rare: read it whole
        return validate_payload(DocumentUploadRequest,
                                {**payload, DOCUMENT_CONTENT: content.text()})
    stand_in, size = checked_base64(content)
    value, errors = validate_payload(DocumentUploadRequest, {**payload, DOCUMENT_CONTENT: stand_in})
    if size > max_document_bytes:
        mb = max_document_bytes // (1024 * 1024)
        errors = [*errors, FieldError(DOCUMENT_CONTENT, f"The document is larger than {mb} MB")]
    return (None, errors) if errors else (value, [])


def checked_base64(content: SpilledString) -> tuple[str, int]:
    """Check the Base64 a chunk at a time: what stands in for it in the shape's check (its
    last group, or the first piece that is not Base64 with the characters after it) and its
    decoded size so far."""
    held, size = b"", 0
    for chunk in content.raw_chunks(CHECK_CHUNK):
        data = held + chunk
        cut = max(0, (len(data) - 4) // 4 * 4)  # the last group may carry padding: held back
        whole, held = data[:cut], data[cut:]
        if not _ALPHABET.fullmatch(whole):  # with what follows it, never valid Base64
            return _text(data), size
        size += len(whole) // 4 * 3
    with contextlib.suppress(binascii.Error, ValueError):  # the shape refuses it, in its words
        size += len(base64.b64decode(held, validate=True))
    return _text(held), size


def _text(piece: bytes) -> str:
    """A piece of the raw content as text (bytes that are not ASCII show as not Base64)."""
    return piece.decode("ascii", "replace")
