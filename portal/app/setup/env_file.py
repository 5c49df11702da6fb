"""Write settings into the env file the portal reads (``portal.core.config.env_files``):
changed variables replaced where they stand, new ones appended, the rest kept as written."""

from __future__ import annotations

import re
from pathlib import Path

from portal.core.private_files import private_folder, write_private

_PLAIN = re.compile(r"[A-Za-z0-9_./:@+=,-]*")


def _quoted(value: str) -> str:
    """``value`` as dotenv reads it back unchanged."""
    if _PLAIN.fullmatch(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_settings(path: Path, values: dict[str, str]) -> None:
    """Set ``values`` in the env file at ``path`` (created owner-only if missing)."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    pending = dict(values)
    kept = []
    for line in lines:
        name = line.partition("=")[0].strip().removeprefix("export ").strip()
        if name in pending and not line.lstrip().startswith("#"):
            kept.append(f"{name}={_quoted(pending.pop(name))}")
        elif name not in values:
            kept.append(line)
    kept += [f"{name}={_quoted(value)}" for name, value in pending.items()]
    if not path.parent.is_dir():
        private_folder(path.parent)
    write_private(path, ("\n".join(kept) + "\n").encode("utf-8"))
