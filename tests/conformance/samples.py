"""The answer samples of contract revision 3 (``../shared/spec/samples-rev3``): each JSON file
holds ``_source`` (where the shape is documented), ``http`` (its status code) and ``body``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.conformance.support import require_shared

SAMPLES = Path("spec") / "samples-rev3"


@dataclass(frozen=True)
class Sample:
    """One documented answer."""

    source: str
    http: int | None
    body: Any


def sample(name: str) -> Sample:
    """The sample ``name`` (its file name without ``.json``); skips where the shared folder is
    absent (fails under CI=true)."""
    data = json.loads(require_shared(SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return Sample(data["_source"], data.get("http"), data["body"])
