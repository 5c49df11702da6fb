"""Where an import from the page keeps the documents of its ZIP until its rows have sent them.

Each import has a folder of its own under the upload folder (owner-only, like every upload),
holding one copy of each file its rows name, under generated names. The folder goes when the
import ends. A folder whose import never got stored (the web process died during the upload)
is swept once it is a day old and no running import owns it.
"""

from __future__ import annotations

import posixpath
import shutil
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from portal.bulk.archive import ZipDocuments
from portal.bulk.parsing import BulkRow, DocumentCell

#: The folder, inside the upload folder, of every import's staged documents.
ROOT = "bulk-imports"
#: Age after which a folder that no running import owns is swept.
ORPHAN_SECONDS = 24 * 3600


def folder_of(upload_folder: str, import_id: int) -> Path:
    """The folder of import ``import_id``'s documents."""
    return Path(upload_folder) / ROOT / str(import_id)


def stage_rows(archive: ZipDocuments, rows: Iterable[BulkRow],
               folder: Path) -> dict[int, list[dict[str, Any]]]:
    """Copy every file the rows name out of ``archive`` into ``folder`` (once per file): each
    row's document cells pointing at the copies, by row number."""
    discard(folder)  # a folder left by an upload that died under this id before
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


def discard(folder: Path) -> None:
    """Delete an import's folder and its copies, if there is one."""
    shutil.rmtree(folder, ignore_errors=True)


def sweep(upload_folder: str, running: set[int]) -> None:
    """Delete the folders of imports not running that are older than a day."""
    root = Path(upload_folder) / ROOT
    if not root.is_dir():
        return
    oldest = time.time() - ORPHAN_SECONDS
    for folder in root.iterdir():
        if (folder.is_dir() and folder.name.isdigit() and int(folder.name) not in running
                and folder.stat().st_mtime < oldest):
            discard(folder)
