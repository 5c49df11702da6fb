"""Moving the upload folder's files into the object store (``flask documents move-to-storage``).

Each file is hashed, sent, read back from the store and hashed again; only a copy whose SHA-256
is the file's (and, for a document, the one recorded at its upload) lets the file be deleted.
What a kill at each point leaves: while hashing or sending, the file stays (an object is written
whole or not at all); after the send, both stay, and the next run finds the copy, verifies it
and deletes the file. A run therefore resumes where any earlier one stopped, and never loses a
file. While files are still in the folder the portal reads them from there
(``portal.core.storage.fallback``), so it can run with the portal up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import select

from portal.core.db import db
from portal.core.models.document import StoredDocument
from portal.core.storage.base import COPY_CHUNK, DocumentStore
from portal.core.storage.folder import FolderStore
from portal.core.storage.s3 import S3Store


class Outcome(StrEnum):
    """What became of one file."""

    MOVED = "moved"
    #: Gone from the folder before it was read (another run moved it, or retention deleted it).
    GONE = "gone"
    #: Kept: its bytes are not the ones recorded when the document was uploaded.
    DIFFERS = "differs"
    #: Kept: the store's copy read back differs from the file (sent again at the next run).
    COPY_DIFFERS = "copy_differs"


#: Why a file was kept, in words.
REASONS = {
    Outcome.DIFFERS: "kept in the folder: its bytes are not those recorded at its upload "
                     "(SHA-256), so it was not copied",
    Outcome.COPY_DIFFERS: "kept in the folder: the store's copy read back differs from it; "
                          "run the command again",
}


@dataclass
class MoveReport:
    """What a run did: files moved, and the files kept with why."""

    moved: int = 0
    gone: int = 0
    kept: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, outcome: Outcome) -> None:
        """Count one file's outcome."""
        if outcome is Outcome.MOVED:
            self.moved += 1
        elif outcome is Outcome.GONE:
            self.gone += 1
        else:
            self.kept[name] = REASONS[outcome]


def sha256_of(store: DocumentStore, name: str) -> str | None:
    """The SHA-256 of a stored file, read a chunk at a time; None when there is none."""
    digest = hashlib.sha256()
    try:
        with store.open(name) as stream:
            for chunk in iter(lambda: stream.read(COPY_CHUNK), b""):
                digest.update(chunk)
    except FileNotFoundError:
        return None
    return digest.hexdigest()


def move_all(folder: FolderStore, target: S3Store,
             heard: Callable[[str, Outcome], None] | None = None) -> MoveReport:
    """Move every finished file of ``folder`` into ``target``; ``heard`` hears each one."""
    report = MoveReport()
    for entry in list(folder.listing()):
        outcome = move_one(folder, target, entry.name)
        report.add(entry.name, outcome)
        if heard is not None:
            heard(entry.name, outcome)
    return report


def move_one(folder: FolderStore, target: S3Store, name: str) -> Outcome:
    """Copy one file into ``target``, verify the copy, then delete the file (see the module's
    docstring for what a kill at each step leaves)."""
    local = sha256_of(folder, name)
    if local is None:
        return Outcome.GONE
    document = db.session.scalar(select(StoredDocument).where(StoredDocument.stored_name == name))
    if document is not None and document.sha256 != local:
        db.session.rollback()
        return Outcome.DIFFERS
    db.session.rollback()  # no transaction is held while the file travels
    if sha256_of(target, name) != local:
        target.put_file(name, folder.path_of(name))
        if sha256_of(target, name) != local:
            return Outcome.COPY_DIFFERS
    if document is not None and _deleted_meanwhile(name):
        target.delete(name)  # retention deleted the document's file while it travelled
    folder.delete(name)
    return Outcome.MOVED


def _deleted_meanwhile(name: str) -> bool:
    """Whether retention has recorded the document's file as deleted by now."""
    deleted = db.session.scalar(select(StoredDocument.file_deleted_at)
                                .where(StoredDocument.stored_name == name))
    db.session.rollback()
    return deleted is not None
