"""The answer samples behind docs/gateway-contract.md, "Reading answers"
(``shared/spec/samples-rev3/*.json``): each
holds ``_source`` (where the shape is documented), ``http`` (its status, where one applies) and
``body``. Read from the shared folder: absent, the tests skip (under ``CI=true`` they fail)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conformance.support import require_shared

FOLDER = Path("spec") / "samples-rev3"


@dataclass(frozen=True)
class Sample:
    """One sample: its documented source, HTTP status (200 when none is given) and body."""

    source: str
    http: int
    body: Any

    def raw(self) -> bytes:
        """The body as the gateway would send it: the sample's JSON, compact."""
        return json.dumps(self.body, separators=(",", ":")).encode()


def sample(name: str) -> Sample:
    """The sample ``name`` (e.g. ``bank-details.docs.json``)."""
    found = json.loads(require_shared(FOLDER / name).read_text(encoding="utf-8"))
    return Sample(found["_source"], int(found.get("http") or 200), found["body"])
