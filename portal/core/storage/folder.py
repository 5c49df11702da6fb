"""The local folder backend: each name is a file under the folder (owner-only, like every
upload), written to a ``.part`` file first and renamed when kept, so a file that exists is whole.

The folder is created only when something is written to it: a folder of someone else's (the one
``flask merchants import`` reads a CSV's documents from) is read, never made owner-only.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from portal.core.private_files import open_private, private_folder
from portal.core.storage.base import PARTIAL, Entry, Incoming, joined

#: Folders inside the store that belong to no name (an object store's spool, for one).
HIDDEN = "."


class _Partial:
    """An upload written to ``<folder>/<uuid>.part``; ``keep`` renames it into place."""

    def __init__(self, store: FolderStore, sink: BinaryIO, partial: Path) -> None:
        self.sink = sink
        self._store = store
        self._partial = partial
        self.kept = False

    def keep(self, name: str) -> None:
        """Rename the finished file to ``name`` (its folders made owner-only)."""
        self.sink.close()
        target = self._store.path_of(name)
        private_folder(target.parent)
        self._partial.rename(target)
        self.kept = True


class FolderStore:
    """Files under ``root`` (and ``prefix`` inside it)."""

    encryption = "as the disk keeps it: the portal does not encrypt files in the upload folder"

    def __init__(self, root: str | Path, prefix: str = "") -> None:
        self.root = Path(root)
        self.prefix = prefix.strip("/")

    def path_of(self, name: str) -> Path:
        """Where the file ``name`` is on disk."""
        return self.root / joined(self.prefix, name)

    @contextmanager
    def incoming(self) -> Iterator[Incoming]:
        """A ``.part`` file in the store's folder, deleted unless kept."""
        folder = private_folder(self.root / self.prefix)
        partial = folder / f"{uuid.uuid4().hex}{PARTIAL}"
        upload = _Partial(self, open_private(partial), partial)
        try:
            with upload.sink:
                yield upload
        finally:
            if not upload.kept:  # refused, or the write failed: no partial file stays behind
                partial.unlink(missing_ok=True)

    def open(self, name: str) -> BinaryIO:
        """The file, opened for reading (FileNotFoundError when there is none)."""
        path = self.path_of(name)
        if not path.is_file():
            raise FileNotFoundError(name)
        return path.open("rb")

    def delete(self, name: str) -> None:
        """Unlink the file, if there is one."""
        self.path_of(name).unlink(missing_ok=True)

    def delete_under(self, prefix: str) -> None:
        """Remove the folder ``prefix`` and everything in it."""
        shutil.rmtree(self.path_of(prefix), ignore_errors=True)

    def listing(self, prefix: str = "") -> Iterator[Entry]:
        """Finished files under ``prefix``, by name; hidden folders and ``.part`` files left
        out."""
        top = self.path_of(prefix) if prefix else self.root / self.prefix
        if not top.is_dir():
            return
        base = self.root / self.prefix
        for path in sorted(top.rglob("*")):
            relative = PurePosixPath(path.relative_to(base).as_posix())
            if path.suffix == PARTIAL or any(p.startswith(HIDDEN) for p in relative.parts):
                continue
            try:
                if path.is_file():
                    yield Entry(str(relative), datetime.fromtimestamp(path.stat().st_mtime, UTC))
            except FileNotFoundError:  # deleted since the folder was read
                continue

    def within(self, prefix: str) -> FolderStore:
        """The folder ``prefix`` inside this one, as a store."""
        return FolderStore(self.root, joined(self.prefix, prefix.strip("/")))
