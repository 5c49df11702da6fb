"""A JSON request body read in bounded memory (the document upload's, with its Base64).

The body is spooled to a temporary file a chunk at a time, its HMAC and SHA-256 computed on the
way. It is then parsed as JSON with every string longer than SPILL_BYTES left in the file: the
parsed value holds a :class:`SpilledString` there, read back in chunks by whoever needs it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from flask import Request

from portal.gateway.onboarding.hmac import SignedBody
from portal.gateway.shapes import FieldError
from portal.sandbox.common.errors import validation_error
from portal.sandbox.common.json_body import BODY_FIELD, parsed_json, require_json

#: What a body is read back from: a file, or the spooled body it was read into.
BodyFile = IO[bytes] | SignedBody
#: How much of a body is read (or scanned) at a time.
CHUNK = 64 * 1024
#: Strings longer than this stay in the spooled file instead of the parsed value.
SPILL_BYTES = 64 * 1024
#: Inside a string: where it ends, or an escape starts.
_STRING_STOP = re.compile(rb'["\\]')


@dataclass(frozen=True)
class SpooledBody:
    """A request body as it arrived: in a spooled file, with its size, SHA-256 and HMAC."""

    file: BodyFile
    size: int
    sha256: str
    #: Standard Base64 of the HMAC-SHA256 under the key it was read for.
    digest: str


@dataclass(frozen=True)
class SpilledString:
    """A long JSON string left in the spooled body: the raw bytes between its quotes."""

    file: BodyFile
    start: int
    end: int
    #: Whether the raw bytes hold backslash escapes (then only :meth:`text` reads it right).
    escaped: bool

    def raw_chunks(self, size: int) -> Iterator[bytes]:
        """The raw bytes between the quotes, ``size`` bytes at a time."""
        self.file.seek(self.start)
        left = self.end - self.start
        while left > 0:
            chunk = self.file.read(min(size, left))
            left -= len(chunk)
            yield chunk

    def text(self) -> str:
        """The whole string decoded (one copy in memory)."""
        return json.loads(b'"' + b"".join(self.raw_chunks(CHUNK)) + b'"')


def spool(stream: IO[bytes], mac: hmac.HMAC) -> SpooledBody:
    """Read ``stream`` to its end into a spooled temporary file, a chunk at a time, feeding
    ``mac`` (as the client's :class:`SignedBody` does when it writes one) and a SHA-256 the
    same bytes."""
    body, sha = SignedBody(mac), hashlib.sha256()
    for chunk in iter(lambda: stream.read(CHUNK), b""):
        sha.update(chunk)
        body.write(chunk)
    body.finish()
    return SpooledBody(body, len(body), sha.hexdigest(), body.digest)


def read_spooled_json(request: Request, body: SpooledBody) -> Any:
    """The body's JSON value, each string longer than SPILL_BYTES a :class:`SpilledString`;
    400 VALIDATION_ERROR on field ``body`` as :func:`read_json` answers it."""
    require_json(request)
    return parse_spooled(body.file)


def parse_spooled(file: BodyFile) -> Any:
    """The JSON value in ``file``, each string longer than SPILL_BYTES a :class:`SpilledString`;
    400 VALIDATION_ERROR on field ``body`` when it holds no JSON."""
    skeleton, spilled = _Skeleton(file).scan()
    if not skeleton.strip():
        raise validation_error([FieldError(BODY_FIELD, "The request body is empty")])
    return _restore(parsed_json(bytes(skeleton)), spilled)


def _restore(value: Any, spilled: dict[str, SpilledString]) -> Any:
    """``value`` with each placeholder string replaced by the string it stands for."""
    if isinstance(value, str):
        return spilled.get(value, value)
    if isinstance(value, dict):
        return {(spilled[k].text() if k in spilled else k): _restore(v, spilled)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_restore(item, spilled) for item in value]
    return value


class _Skeleton:
    """One pass over a spooled body: the JSON text with each long string replaced by a
    placeholder string, and the long strings' places in the file by placeholder."""

    def __init__(self, file: BodyFile) -> None:
        self._file = file
        self._nonce = secrets.token_hex(8)
        self.text = bytearray()
        self.spilled: dict[str, SpilledString] = {}
        self._string: bytearray | None = None  # the current string while it is short
        self._start = 0
        self._escaped = False

    def scan(self) -> tuple[bytearray, dict[str, SpilledString]]:
        """Walk the body once; the skeleton text and the spilled strings."""
        self._file.seek(0)
        offset, in_string, escape = 0, False, False
        for chunk in iter(lambda: self._file.read(CHUNK), b""):
            pos = 0
            while pos < len(chunk):
                if not in_string:
                    quote = chunk.find(b'"', pos)
                    end = len(chunk) if quote < 0 else quote
                    self.text += chunk[pos:end]
                    if quote < 0:
                        break
                    in_string, pos = True, quote + 1
                    self._open(offset + pos)
                elif escape:
                    escape, pos = False, pos + 1
                    self._keep(chunk[pos - 1:pos])
                else:
                    stop = _STRING_STOP.search(chunk, pos)
                    end = len(chunk) if stop is None else stop.start()
                    self._keep(chunk[pos:end])
                    if stop is None:
                        break
                    pos = end + 1
                    if chunk[end:pos] == b"\\":
                        escape = self._escaped = True
                        self._keep(b"\\")
                    else:
                        in_string = False
                        self._close(offset + end)
            offset += len(chunk)
        if in_string:  # an unterminated string: leave it for the parser to refuse
            self.text += b'"' + (self._string or b"")
        self._file.seek(0)
        return self.text, self.spilled

    def _open(self, start: int) -> None:
        self._string, self._start, self._escaped = bytearray(), start, False

    def _keep(self, data: bytes) -> None:
        if self._string is not None:
            self._string += data
            if len(self._string) > SPILL_BYTES:
                self._string = None  # too long: it stays in the file

    def _close(self, end: int) -> None:
        if self._string is not None:
            self.text += b'"' + self._string + b'"'
            return
        name = f"spilled-{self._nonce}-{len(self.spilled)}"
        self.spilled[name] = SpilledString(self._file, self._start, end, self._escaped)
        self.text += json.dumps(name).encode("ascii")
