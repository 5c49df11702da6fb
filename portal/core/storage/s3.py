"""The S3-compatible backend (AWS S3, MinIO, Ceph): each name is an object under the bucket's
prefix, written with server-side encryption where the store offers it (``encryption``).

An upload is spooled to a private file on this host first (its type and SHA-256 judged on the
way), then sent from that file with a multipart upload when it is large, one part at a time, so
memory stays flat whatever its size; an object appears whole or not at all. Reads stream the
object's body.
"""

from __future__ import annotations

import io
import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from boto3.exceptions import S3UploadFailedError
from boto3.s3.transfer import TransferConfig
from botocore.exceptions import ClientError

from portal.core.private_files import open_private, private_folder
from portal.core.storage import encryption
from portal.core.storage.base import COPY_CHUNK, PARTIAL, Entry, Incoming, joined

log = logging.getLogger("portal.storage")
#: Sizes of the multipart upload: a file over the threshold goes in parts of this size, one at
#: a time (no threads: each would hold a part of its own).
PART_BYTES = 8 * 1024 * 1024
TRANSFER = TransferConfig(multipart_threshold=PART_BYTES, multipart_chunksize=PART_BYTES,
                          max_concurrency=1, use_threads=False)
#: The most keys one DeleteObjects call takes.
DELETE_BATCH = 1000
#: Answers of a read that found no object.
MISSING = frozenset({"NoSuchKey", "404", "NotFound"})


def error_code(exc: BaseException) -> str:
    """The S3 error code of a failed call (also inside boto3's upload error), or ''."""
    while exc is not None and not isinstance(exc, ClientError):
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return str(exc.response.get("Error", {}).get("Code", "")) if exc is not None else ""


class _Body(io.RawIOBase):
    """An object's streamed body as a raw stream (buffered by ``open``)."""

    def __init__(self, body: Any) -> None:
        self._body = body

    def readable(self) -> bool:
        """Always: it is a download."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` from the body; 0 at its end."""
        data = self._body.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        """Close the body (its connection goes back to the pool)."""
        self._body.close()
        super().close()


class _Encryption:
    """The encryption choice of one store, made once (``encryption``'s docstring), shared by
    every view ``within`` makes of it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.choice: encryption.Encryption | None = None


class _Spooled:
    """An upload spooled to this host's disk; ``keep`` sends it to the bucket."""

    def __init__(self, store: S3Store, sink: BinaryIO, spool: Path) -> None:
        self.sink = sink
        self._store = store
        self._spool = spool

    def keep(self, name: str) -> None:
        """Send the finished file to the bucket as ``name``."""
        self.sink.close()
        self._store.put_file(name, self._spool)


class S3Store:
    """Objects under ``prefix`` in ``bucket``, through a boto3 S3 ``client``; uploads spooled
    in ``spool`` (a folder of this host's) before they are sent."""

    def __init__(self, client: Any, bucket: str, prefix: str, spool: Path,
                 shared: _Encryption | None = None) -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.spool = spool
        self._encryption = shared or _Encryption()

    def key(self, name: str) -> str:
        """The object key of ``name``."""
        return joined(self.prefix, name)

    @property
    def encryption(self) -> str:
        """How objects are kept at rest, in words (asks the bucket once)."""
        return self._choice().words

    @contextmanager
    def incoming(self) -> Iterator[Incoming]:
        """A private spool file on this host; sent to the bucket when kept, deleted after."""
        spool = private_folder(self.spool) / f"{uuid.uuid4().hex}{PARTIAL}"
        try:
            with open_private(spool) as sink:
                yield _Spooled(self, sink, spool)
        finally:
            spool.unlink(missing_ok=True)

    def put_file(self, name: str, path: Path) -> None:
        """Send the file at ``path`` to the bucket as ``name`` (in parts when it is large)."""
        choice = self._choice()
        try:
            self._upload(path, name, choice.arguments)
        except (ClientError, S3UploadFailedError) as exc:
            if not (choice.arguments and encryption.refused(error_code(exc))):
                raise
            self._encryption.choice = encryption.NONE
            log.warning("document store: the bucket %s refused server-side encryption (%s); "
                        "documents are written without it", self.bucket, error_code(exc))
            self._upload(path, name, {})

    def _upload(self, path: Path, name: str, arguments: dict[str, str]) -> None:
        self.client.upload_file(str(path), self.bucket, self.key(name),
                                ExtraArgs=arguments or None, Config=TRANSFER)

    def _choice(self) -> encryption.Encryption:
        with self._encryption.lock:
            if self._encryption.choice is None:
                try:
                    answer = self.client.get_bucket_encryption(Bucket=self.bucket)
                    self._encryption.choice = encryption.from_bucket(answer)
                except ClientError as exc:
                    self._encryption.choice = encryption.from_bucket(None, error_code(exc))
            return self._encryption.choice

    def open(self, name: str) -> BinaryIO:
        """The object's body, streamed (FileNotFoundError when there is none)."""
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self.key(name))
        except ClientError as exc:
            if error_code(exc) in MISSING:
                raise FileNotFoundError(name) from None
            raise
        return io.BufferedReader(_Body(answer["Body"]), buffer_size=COPY_CHUNK)  # type: ignore[return-value]

    def delete(self, name: str) -> None:
        """Delete the object (S3 answers the same when there is none)."""
        self.client.delete_object(Bucket=self.bucket, Key=self.key(name))

    def delete_under(self, prefix: str) -> None:
        """Delete every object under ``prefix/``, a thousand per call."""
        keys = [self.key(entry.name) for entry in self.listing(prefix.strip("/") + "/")]
        for start in range(0, len(keys), DELETE_BATCH):
            batch = keys[start:start + DELETE_BATCH]
            self.client.delete_objects(Bucket=self.bucket, Delete={
                "Objects": [{"Key": key} for key in batch], "Quiet": True})

    def listing(self, prefix: str = "") -> Iterator[Entry]:
        """The objects whose names start with ``prefix``, a page of keys at a time."""
        base = self.key("")
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=base + prefix)
        for page in pages:
            for item in page.get("Contents", []):
                yield Entry(item["Key"][len(base):], item["LastModified"])

    def within(self, prefix: str) -> S3Store:
        """The objects under ``prefix/`` as a store of their own."""
        return S3Store(self.client, self.bucket, joined(self.prefix, prefix.strip("/")),
                       self.spool, self._encryption)
