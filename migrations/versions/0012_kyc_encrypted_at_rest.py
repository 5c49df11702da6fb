"""KYC data encrypted at rest: the merchant's PAN, step drafts, queued sends and the values that
embed owners' PANs (pending document keys, document types, bulk problems) become Fernet tokens
under KYC_ENCRYPTION_KEYS, and the PAN gets a keyed blind index (HMAC) for search.

Existing rows are encrypted here, so the migration needs the keys when there are rows: from the
settings ``portal.core.migrate.upgrade`` passes (``flask db upgrade`` passes the app's), else from the
environment and .env files like the app. An empty database needs none.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from portal.core.config import settings_from_env
from portal.core.encryption import Cipher
from portal.core.key_rotation import rewrite_column

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The columns now stored as Fernet tokens (Text): (table, column, type before).
ENCRYPTED = (
    ("merchants", "pan", sa.String(length=10)),
    ("merchants", "documents_outstanding", sa.JSON()),
    ("step_drafts", "payload", sa.JSON()),
    ("outbox_items", "payload", sa.JSON()),
    ("stored_documents", "doc_type", sa.String(length=120)),
    ("bulk_imports", "problems", sa.JSON()),
)


def _cipher() -> Cipher:
    settings = context.config.attributes.get("settings")
    if settings is None:
        settings = settings_from_env()
    return Cipher.from_settings(settings)


def _has_rows() -> bool:
    """True when there is anything to encrypt (or decrypt), so the keys are needed."""
    return any(op.get_bind().scalar(sa.select(sa.func.count()).select_from(sa.table(table)))
               for table in {table for table, _, _ in ENCRYPTED})


def _retype(table: str, column: str, before: sa.types.TypeEngine, after: sa.types.TypeEngine,
            cast: str | None) -> None:
    with op.batch_alter_table(table) as batch:
        batch.alter_column(column, existing_type=before, type_=after, existing_nullable=False,
                           postgresql_using=f"{column}::{cast}" if cast else None)


def upgrade() -> None:
    with op.batch_alter_table("merchants") as batch:
        batch.drop_index("ix_merchants_pan")
        batch.add_column(sa.Column("pan_index", sa.String(length=64), nullable=True))
        batch.create_index("ix_merchants_pan_index", ["pan_index"])
    for table, column, before in ENCRYPTED:
        _retype(table, column, before, sa.Text(), "text")
    if not _has_rows():
        return
    cipher, connection = _cipher(), op.get_bind()
    for table, column, _ in ENCRYPTED:
        if (table, column) == ("merchants", "pan"):
            rewrite_column(connection, table, column, lambda pan: {
                "pan": cipher.encrypt(pan), "pan_index": cipher.pan_index(pan)})
        else:
            rewrite_column(connection, table, column,
                           lambda text, column=column: {column: cipher.encrypt(text)})


def downgrade() -> None:
    if _has_rows():
        cipher, connection = _cipher(), op.get_bind()
        for table, column, _ in ENCRYPTED:
            rewrite_column(connection, table, column,
                           lambda token, column=column: {column: cipher.decrypt(token)})
    for table, column, before in ENCRYPTED:
        _retype(table, column, sa.Text(), before, "json" if isinstance(before, sa.JSON) else None)
    with op.batch_alter_table("merchants") as batch:
        batch.drop_index("ix_merchants_pan_index")
        batch.drop_column("pan_index")
        batch.create_index("ix_merchants_pan", ["pan"])
