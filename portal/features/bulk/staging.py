"""Where an import from the page keeps the documents of its ZIP until its rows have sent them.

Each import has a part of its own in the document store (``bulk-imports/<id>/``: a folder
under the upload folder, or a prefix in the bucket), holding one copy of each file its rows
name, under generated names, so any worker on any host reads them. The copies go when the
import ends. Copies whose import never got stored (the web process died during the upload) are
swept once the newest is a day old and no running import owns them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from portal.core.storage.base import DocumentStore
from portal.features.bulk.archive import ZipDocuments
from portal.features.bulk.parsing import BulkRow, DocumentCell

#: The part of the document store that holds every import's staged documents.
ROOT = "bulk-imports"
#: Age after which copies that no running import owns are swept.
ORPHAN = timedelta(days=1)


def files_of(store: DocumentStore, import_id: int) -> DocumentStore:
    """The part of ``store`` that holds import ``import_id``'s documents."""
    return store.within(f"{ROOT}/{import_id}")


def stage_rows(archive: ZipDocuments, rows: Iterable[BulkRow], store: DocumentStore,
               import_id: int) -> dict[int, list[dict[str, Any]]]:
    """Copy every file the rows name out of ``archive`` into the import's part of ``store``
    (once per file): each row's document cells pointing at the copies, by row number."""
    discard(store, import_id)  # copies left by an upload that died under this id before
    folder = files_of(store, import_id)
    copies: dict[str, str] = {}
    staged: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        cells = []
        for cell in row.documents:
            if cell.path not in copies:
                copies[cell.path] = archive.stage(cell.path, folder)
            cells.append(DocumentCell(cell.column, copies[cell.path], cell.doc_type, cell.owner,
                                      posixpath.basename(cell.path.replace("\\", "/")))
                         .as_json())
        staged[row.number] = cells
    return staged


def discard(store: DocumentStore, import_id: int) -> None:
    """Delete an import's copies, if it has any."""
    store.delete_under(f"{ROOT}/{import_id}")


def sweep(store: DocumentStore, running: set[int], now: datetime) -> None:
    """Delete the copies of imports not running whose newest copy is older than a day."""
    newest: dict[int, datetime] = {}
    for entry in store.listing(f"{ROOT}/"):
        owner = entry.name.split("/")[1]
        if owner.isdigit():
            newest[int(owner)] = max(entry.modified, newest.get(int(owner), entry.modified))
    for import_id, modified in newest.items():
        if import_id not in running and modified < now - ORPHAN:
            discard(store, import_id)
