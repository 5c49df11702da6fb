"""An upload is read a chunk at a time: judged by its first bytes, counted and hashed on the
way to the upload folder, never read past the limit, and nothing kept when it is refused."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest

from portal.core.config import Settings
from portal.domain.documents.service import CHUNK, read_upload, save_upload
from portal.domain.onboarding.scenarios import sample_pdf

LIMIT = 5 * CHUNK + 7


class CountingStream(io.BytesIO):
    """A stream that remembers how much each read asked for and got."""

    def __init__(self, content: bytes) -> None:
        super().__init__(content)
        self.reads: list[int] = []

    def read(self, size: int | None = -1) -> bytes:
        """Read as BytesIO does, noting the size returned."""
        data = super().read(size)
        self.reads.append(len(data))
        return data


def settings_in(folder: Path) -> Settings:
    """Settings whose uploads go to ``folder``, at most LIMIT bytes each."""
    return Settings(env="testing", upload_folder=str(folder), upload_max_bytes=LIMIT)


def test_a_file_is_read_a_chunk_at_a_time_and_hashed_on_the_way():
    content = sample_pdf("PAN") + b"0" * (3 * CHUNK)
    stream = CountingStream(content)
    sink = io.BytesIO()
    received = read_upload(stream, LIMIT, sink)
    assert received == (len(content), "application/pdf", "",
                        hashlib.sha256(content).hexdigest())
    assert max(stream.reads) <= CHUNK and sink.getvalue() == content


def test_a_file_over_the_limit_is_never_read_past_it():
    stream = CountingStream(sample_pdf("PAN") + b"0" * (20 * CHUNK))
    received = read_upload(stream, LIMIT)
    assert "larger than the limit" in received.error
    assert sum(stream.reads) == LIMIT + 1


@pytest.mark.parametrize(("content", "message"), [
    (b"", "The file is empty."),
    (b"MZ\x90\x00 an executable" + b"0" * CHUNK, "judged by their content"),
    (b"MZ\x90\x00" + b"0" * (2 * LIMIT), "larger than the limit"),  # size is said first
])
def test_a_refused_file_leaves_nothing_in_the_upload_folder(tmp_path, content, message):
    received, stored_name = save_upload(settings_in(tmp_path), io.BytesIO(content))
    assert message in received.error and stored_name == ""
    assert list(tmp_path.iterdir()) == []


def test_an_accepted_file_is_stored_whole_under_its_generated_name(tmp_path):
    content = sample_pdf("PAN") + bytes(range(256)) * (2 * CHUNK // 256)
    received, stored_name = save_upload(settings_in(tmp_path), io.BytesIO(content))
    assert received.error == "" and stored_name.endswith(".pdf")
    assert [p.name for p in tmp_path.iterdir()] == [stored_name]
    assert (tmp_path / stored_name).read_bytes() == content
    assert (tmp_path / stored_name).stat().st_mode & 0o777 == 0o600
