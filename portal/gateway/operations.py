"""An operation of either gateway API: its name, method, path, request and answer, as each API's
``operations`` module lists them (the client calls them by name; the sandbox routes them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from portal.gateway.shapes import ResponseModel


@dataclass(frozen=True)
class Operation:
    """One operation of a gateway API: how it is called and what it takes and gives."""

    name: str
    method: str
    path: str
    request: Any
    response: type[ResponseModel]
    summary: str

    def url_path(self, **params: str) -> str:
        """The path with its parameters filled in (they are percent-encoded)."""
        return self.path.format(**{k: quote(v, safe="") for k, v in params.items()})
