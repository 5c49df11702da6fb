"""Files and folders that hold KYC data or secrets: owner-only (0600/0700) whatever the umask.

A umask can only take permission bits away, so creating with 0600/0700 never gives more; an
existing file or folder is narrowed to owner-only too, so an older install is tightened.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def private_folder(path: Path) -> Path:
    """Create ``path`` (and missing parents) and make it owner-only."""
    path.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    os.chmod(path, PRIVATE_FOLDER)
    return path


def open_private(path: Path) -> BinaryIO:
    """``path`` opened for writing (created or emptied), readable by its owner only from the
    first byte on."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    stream = os.fdopen(descriptor, "wb")
    os.fchmod(stream.fileno(), PRIVATE_FILE)
    return stream


def write_private(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path``, readable by its owner only from the first byte on."""
    with open_private(path) as stream:
        stream.write(content)


def make_private(path: Path) -> None:
    """Create ``path`` empty if missing, and make it owner-only."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE))
    os.chmod(path, PRIVATE_FILE)
