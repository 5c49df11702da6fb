"""The ZIP of documents: names found safely, bounded reads, copies only inside the import's folder,
and the folders of imports that ended (or never got stored) swept away."""

from __future__ import annotations

import io
import os
import time
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from portal.core.storage.folder import FolderStore
from portal.features.bulk import archive as archive_module
from portal.features.bulk import staging
from portal.features.bulk.archive import ArchiveError, ZipDocuments
from portal.features.bulk.parsing import BulkRow, DocumentCell

PDF = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n"
LIMIT = 1024


def documents(files: dict[str, bytes]) -> ZipDocuments:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as writer:
        for name, content in files.items():
            writer.writestr(name, content)
    out.seek(0)
    return ZipDocuments(out, LIMIT)


@pytest.mark.parametrize("name", ["../a.pdf", "/a.pdf", "docs/../../a.pdf", "C:\\a.pdf",
                                  "..\\a.pdf", ""])
def test_a_name_that_leaves_the_archive_is_refused(name):
    assert "is not a name inside the ZIP" in documents({"a.pdf": PDF}).problem(name)


def test_names_match_with_either_slash_and_by_file_name_when_it_is_unique():
    found = documents({"docs/a.pdf": PDF, "x/b.pdf": PDF, "y/b.pdf": PDF})
    assert found.problem("docs/a.pdf") == ""
    assert found.problem("docs\\a.pdf") == ""
    assert found.problem("a.pdf") == ""
    assert found.problem("b.pdf") == "No file b.pdf in the ZIP of documents"  # which one?


def test_a_file_over_the_limit_is_refused_from_its_declared_size():
    found = documents({"big.pdf": PDF + b"0" * LIMIT})
    assert found.problem("big.pdf").startswith("The file is larger than the limit of 1,024 bytes")


def test_the_files_named_may_add_up_to_a_bounded_size(monkeypatch):
    monkeypatch.setattr(archive_module, "MAX_UNPACKED_BYTES", 2 * len(PDF))
    found = documents({"a.pdf": PDF, "b.pdf": PDF, "c.pdf": PDF})
    assert [found.problem(n) for n in ("a.pdf", "b.pdf", "a.pdf")] == ["", "", ""]
    assert found.problem("c.pdf").startswith("The files this CSV names add up to more than")


def test_an_archive_with_too_many_files_is_refused(monkeypatch):
    monkeypatch.setattr(archive_module, "MAX_ENTRIES", 2)
    with pytest.raises(ArchiveError, match="The ZIP holds 3 files; at most 2 are accepted"):
        documents({"a.pdf": PDF, "b.pdf": PDF, "c.pdf": PDF})


def test_copies_go_under_generated_names_inside_the_imports_folder(tmp_path: Path):
    found = documents({"../../escape.pdf": PDF, "docs/a.pdf": PDF})
    folder = tmp_path / "uploads" / staging.ROOT / "7"
    rows = [BulkRow(2, {}, [DocumentCell("owner1_aadhar", "escape.pdf", owner=0),
                            DocumentCell("doc_PAN", "docs/a.pdf", doc_type="PAN")]),
            BulkRow(3, {}, [DocumentCell("doc_PAN", "docs/a.pdf", doc_type="PAN")])]
    staged = staging.stage_rows(found, rows, FolderStore(tmp_path / "uploads"), 7)
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(written) == 2  # one copy per file, however many rows name it
    assert all(p.parent == Path("uploads", staging.ROOT, "7") for p in written)
    assert staged[2][0]["name"] == "escape.pdf" and staged[2][1]["name"] == "a.pdf"
    assert staged[3][0]["path"] == staged[2][1]["path"]
    assert oct(folder.stat().st_mode & 0o777) == "0o700"


def test_folders_of_imports_not_running_are_swept_once_a_day_old(tmp_path: Path):
    root = tmp_path / staging.ROOT
    for name in ("1", "2", "3"):
        (root / name).mkdir(parents=True)
        (root / name / "a.pdf").write_bytes(PDF)
    day_old = time.time() - staging.ORPHAN.total_seconds() - 60
    for name in ("1", "2"):
        os.utime(root / name / "a.pdf", (day_old, day_old))
    staging.sweep(FolderStore(tmp_path), {2}, datetime.now(UTC))
    assert sorted(p.name for p in root.iterdir()) == ["2", "3"]  # running, or too young
