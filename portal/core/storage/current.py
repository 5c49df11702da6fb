"""The document store the settings name, built once per app: the upload folder when
DOCUMENT_STORAGE is empty, else the S3-compatible bucket it names (with the folder behind it,
for the files not moved yet)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config
from flask import current_app, has_app_context

from portal.core.config import Settings, current_settings
from portal.core.storage.base import DocumentStore
from portal.core.storage.fallback import WithFolderBehind
from portal.core.storage.folder import FolderStore
from portal.core.storage.s3 import S3Store

#: Where an app keeps its store, with the settings it was built from.
STORE_EXTENSION = "portal.document_store"
#: The scheme of DOCUMENT_STORAGE naming a bucket.
S3_SCHEME = "s3://"
#: The region when DOCUMENT_STORAGE_REGION is empty (AWS's first; MinIO's default too).
DEFAULT_REGION = "us-east-1"
#: Where an object store's uploads are spooled, inside this host's upload folder.
SPOOL = ".incoming"


def location(storage: str) -> tuple[str, str]:
    """``s3://bucket/some/prefix`` -> ('bucket', 'some/prefix')."""
    bucket, _, prefix = storage.removeprefix(S3_SCHEME).partition("/")
    return bucket, prefix.strip("/")


def s3_client(settings: Settings) -> Any:
    """A boto3 S3 client for the settings' endpoint, region and credentials (empty
    credentials: boto3's own chain, e.g. the host's role), with timeouts and bounded retries."""
    config = Config(connect_timeout=settings.connect_timeout, read_timeout=settings.read_timeout,
                    retries={"max_attempts": 3, "mode": "standard"},
                    s3={"addressing_style": "path" if settings.storage_endpoint else "auto"})
    return boto3.session.Session().client(
        "s3", endpoint_url=settings.storage_endpoint or None,
        region_name=settings.storage_region or DEFAULT_REGION,
        aws_access_key_id=settings.storage_access_key_id or None,
        aws_secret_access_key=settings.storage_secret_access_key or None, config=config)


def object_store(settings: Settings) -> S3Store:
    """The bucket DOCUMENT_STORAGE names (ValueError when it names none)."""
    if not settings.document_storage.startswith(S3_SCHEME):
        raise ValueError("DOCUMENT_STORAGE names no object store")
    bucket, prefix = location(settings.document_storage)
    return S3Store(s3_client(settings), bucket, prefix,
                   Path(settings.upload_folder) / SPOOL)


def build_store(settings: Settings) -> DocumentStore:
    """A new store as the settings name it."""
    folder = FolderStore(settings.upload_folder)
    if not settings.document_storage:
        return folder
    return WithFolderBehind(object_store(settings), folder)


def store_for(settings: Settings) -> DocumentStore:
    """The store of ``settings``: the app's own when they are its settings (built once, so its
    connections are kept), else a new one."""
    if not has_app_context() or current_settings() is not settings:
        return build_store(settings)
    held = current_app.extensions.get(STORE_EXTENSION)
    if held is None or held[0] is not settings:
        held = current_app.extensions[STORE_EXTENSION] = (settings, build_store(settings))
    return held[1]


def current_store() -> DocumentStore:
    """The store of the app handling the current request, command or job."""
    return store_for(current_settings())
