"""The answer samples behind docs/gateway-contract.md, revision 4, "Identity, idempotency and
late outcomes" (``shared/spec/samples-rev4/*.json``): each holds ``_source`` (the repository,
path and commit the shape comes from), ``http`` (its status, where one applies) and ``body``;
some add ``headers``, ``_request`` or a token's decoded parts. Read from the shared folder:
absent, the tests skip (under ``CI=true`` they fail)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conformance.support import require_shared

FOLDER = Path("spec") / "samples-rev4"


@dataclass(frozen=True)
class Sample:
    """One sample: its source, HTTP status (200 when none is given), body, and the file's other
    keys (``headers``, ``_request``, ``_token_payload``, ...)."""

    source: str
    http: int
    body: Any
    extra: dict[str, Any] = field(default_factory=dict)

    def raw(self) -> bytes:
        """The body as the gateway would send it: the sample's JSON, compact."""
        return json.dumps(self.body, separators=(",", ":")).encode()


def sample(name: str) -> Sample:
    """The sample ``name`` (e.g. ``status-two-ids.openapi.json``)."""
    found = json.loads(require_shared(FOLDER / name).read_text(encoding="utf-8"))
    extra = {k: v for k, v in found.items() if k not in ("_source", "http", "body")}
    return Sample(found["_source"], int(found.get("http") or 200), found["body"], extra)
