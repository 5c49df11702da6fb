"""An object store with the upload folder behind it, while ``flask documents move-to-storage``
moves the folder's files into it: new files go to the store; a file the store does not have
yet is read from the folder; deletions reach both, so retention and a merchant's removal leave
nothing behind in either."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import BinaryIO

from portal.core.storage.base import DocumentStore, Entry, Incoming
from portal.core.storage.folder import FolderStore
from portal.core.storage.s3 import S3Store


class WithFolderBehind:
    """``store`` first, then the files still in ``folder``."""

    def __init__(self, store: S3Store, folder: FolderStore) -> None:
        self.store = store
        self.folder = folder

    @property
    def encryption(self) -> str:
        """The object store's."""
        return self.store.encryption

    def incoming(self) -> AbstractContextManager[Incoming]:
        """New files go to the object store only."""
        return self.store.incoming()

    def open(self, name: str) -> BinaryIO:
        """The object, else the folder's file not moved yet."""
        try:
            return self.store.open(name)
        except FileNotFoundError:
            return self.folder.open(name)

    def delete(self, name: str) -> None:
        """Delete the object and the folder's file."""
        self.store.delete(name)
        self.folder.delete(name)

    def delete_under(self, prefix: str) -> None:
        """Delete under ``prefix`` in both."""
        self.store.delete_under(prefix)
        self.folder.delete_under(prefix)

    def listing(self, prefix: str = "") -> Iterator[Entry]:
        """The objects, then the folder's files not moved yet."""
        yield from self.store.listing(prefix)
        yield from self.folder.listing(prefix)

    def within(self, prefix: str) -> DocumentStore:
        """Both seen from inside ``prefix``."""
        return WithFolderBehind(self.store.within(prefix), self.folder.within(prefix))
