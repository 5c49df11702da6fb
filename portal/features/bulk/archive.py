"""The documents of a bulk import from the page: a ZIP uploaded beside the CSV.

A row's ``doc_*`` and ``owner*_aadhar`` cells name files inside the ZIP (``docs/gst.pdf``, or
just ``gst.pdf`` when only one file has that name). Each file is checked as the wizard checks an
upload (PDF, JPEG or PNG by its content, at most UPLOAD_MAX_BYTES), read a chunk at a time and
never past its size as the ZIP declares it, so a crafted archive cannot fill memory or disk.
Files are copied out under generated names into a folder of the import's own: no name from the
archive is ever used as a path, and a name that climbs out of the archive (``../x``, ``/etc/x``)
is refused.
"""

from __future__ import annotations

import posixpath
import zipfile
from typing import BinaryIO

from portal.core.storage.base import DocumentStore
from portal.domain.documents.service import read_upload, save_stream, size_text, too_large

#: The largest ZIP the page accepts (the request's limit, the CSV aside).
MAX_ZIP_BYTES = 100 * 1024 * 1024
#: The most files one ZIP may hold.
MAX_ENTRIES = 5_000
#: The most bytes the files a CSV names may add up to, unpacked.
MAX_UNPACKED_BYTES = 500 * 1024 * 1024
#: Flag bit of a ZIP entry protected by a password.
_ENCRYPTED = 0x1


class ArchiveError(ValueError):
    """The upload is not a ZIP the portal can read, in words for the admin."""


class ZipDocuments:
    """The files of an uploaded ZIP, found by the names a CSV gives them."""

    def __init__(self, stream: BinaryIO, max_bytes: int) -> None:
        try:
            self._zip = zipfile.ZipFile(stream)
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise ArchiveError("The documents file is not a ZIP archive: make one with your "
                               "computer's \"Compress\" or \"Send to ZIP\" and upload it "
                               "again.") from exc
        entries = [info for info in self._zip.infolist() if not info.is_dir()]
        if len(entries) > MAX_ENTRIES:
            raise ArchiveError(f"The ZIP holds {len(entries):,} files; at most "
                               f"{MAX_ENTRIES:,} are accepted. Split the import.")
        self.max_bytes = max_bytes
        self._by_name = {_clean(info.filename): info for info in entries}
        self._by_base: dict[str, list[zipfile.ZipInfo]] = {}
        for name, info in self._by_name.items():
            self._by_base.setdefault(posixpath.basename(name), []).append(info)
        self._problems: dict[str, str] = {}
        self._unpacked = 0

    def problem(self, name: str) -> str:
        """Why the file a cell names cannot be sent ('' when it can); each file is read once."""
        info, message = self._find(name)
        if info is None:
            return message
        if info.filename not in self._problems:
            self._problems[info.filename] = self._check(info)
        return self._problems[info.filename]

    def stage(self, name: str, folder: DocumentStore) -> str:
        """Copy the (checked) file a cell names into ``folder`` under a generated name: that
        name."""
        info, message = self._find(name)
        if info is None:
            raise ArchiveError(message)
        with self._zip.open(info) as stream:
            received, stored_name = save_stream(stream, folder, self.max_bytes)
        if received.error:
            raise ArchiveError(received.error)
        return stored_name

    def _find(self, name: str) -> tuple[zipfile.ZipInfo | None, str]:
        wanted = name.replace("\\", "/").strip()
        if not wanted or wanted.startswith("/") or ".." in wanted.split("/") or ":" in wanted:
            return None, (f"{name} is not a name inside the ZIP: give the file's path in the "
                          "ZIP, such as docs/gst.pdf")
        info = self._by_name.get(_clean(wanted))
        if info is None:
            same = self._by_base.get(posixpath.basename(wanted), [])
            info = same[0] if len(same) == 1 else None
        if info is None:
            return None, f"No file {name} in the ZIP of documents"
        if info.flag_bits & _ENCRYPTED:
            return None, f"{name} is protected by a password in the ZIP; add it without one"
        return info, ""

    def _check(self, info: zipfile.ZipInfo) -> str:
        if info.file_size > self.max_bytes:
            return too_large(self.max_bytes)
        if self._unpacked + info.file_size > MAX_UNPACKED_BYTES:
            return (f"The files this CSV names add up to more than "
                    f"{size_text(MAX_UNPACKED_BYTES)} unpacked; split the import")
        self._unpacked += info.file_size
        try:
            with self._zip.open(info) as stream:
                return read_upload(stream, self.max_bytes).error
        except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError):
            return "The ZIP's copy of this file is damaged or packed in a way the portal " \
                   "cannot read; add it to the ZIP again"


def _clean(name: str) -> str:
    """An archive name compared as a path inside the archive: '/' separators, no './'."""
    return posixpath.normpath(name.replace("\\", "/")).lstrip("/")
