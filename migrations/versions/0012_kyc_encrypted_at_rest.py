"""KYC data encrypted at rest: the merchant's PAN, step drafts and queued sends become Fernet
tokens under KYC_ENCRYPTION_KEYS, and the PAN gets a keyed blind index for search.

Existing rows are encrypted here, so the migration needs the keys when there are rows: from the
settings ``portal.migrate.upgrade`` passes (``flask db upgrade`` passes the app's), else from the
environment and .env files like the app. An empty database needs none.

Revision ID: 0012
Revises: 0007
Create Date: 2026-11-23
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from portal.config import load_environment, settings_from_env
from portal.encryption import Cipher
from portal.key_rotation import rewrite_column

revision: str = "0012"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The JSON columns whose whole document is encrypted: (table, column).
DOCUMENTS = (("step_drafts", "payload"), ("outbox_items", "payload"))


def _cipher() -> Cipher:
    settings = context.config.attributes.get("settings")
    if settings is None:
        load_environment()
        settings = settings_from_env()
    return Cipher.from_settings(settings)


def _has_rows() -> bool:
    """True when there is anything to encrypt (or decrypt), so the keys are needed."""
    tables = ("merchants", *(table for table, _ in DOCUMENTS))
    return any(op.get_bind().scalar(sa.select(sa.func.count()).select_from(sa.table(table)))
               for table in tables)


def _json_to_text(table: str, column: str) -> None:
    with op.batch_alter_table(table) as batch:
        batch.alter_column(column, existing_type=sa.JSON(), type_=sa.Text(),
                           existing_nullable=False, postgresql_using=f"{column}::text")


def _text_to_json(table: str, column: str) -> None:
    with op.batch_alter_table(table) as batch:
        batch.alter_column(column, existing_type=sa.Text(), type_=sa.JSON(),
                           existing_nullable=False, postgresql_using=f"{column}::json")


def upgrade() -> None:
    with op.batch_alter_table("merchants") as batch:
        batch.drop_index("ix_merchants_pan")
        batch.alter_column("pan", existing_type=sa.String(length=10), type_=sa.Text(),
                           existing_nullable=False)
        batch.add_column(sa.Column("pan_index", sa.String(length=64), nullable=True))
        batch.create_index("ix_merchants_pan_index", ["pan_index"])
    for table, column in DOCUMENTS:
        _json_to_text(table, column)
    if not _has_rows():
        return
    cipher, connection = _cipher(), op.get_bind()
    rewrite_column(connection, "merchants", "pan", lambda pan: {
        "pan": cipher.encrypt(pan), "pan_index": cipher.pan_index(pan)})
    for table, column in DOCUMENTS:
        rewrite_column(connection, table, column,
                       lambda text, column=column: {column: cipher.encrypt(text)})


def downgrade() -> None:
    if _has_rows():
        cipher, connection = _cipher(), op.get_bind()
        for table, column in (("merchants", "pan"), *DOCUMENTS):
            rewrite_column(connection, table, column,
                           lambda token, column=column: {column: cipher.decrypt(token)})
    for table, column in DOCUMENTS:
        _text_to_json(table, column)
    with op.batch_alter_table("merchants") as batch:
        batch.drop_index("ix_merchants_pan_index")
        batch.drop_column("pan_index")
        batch.alter_column("pan", existing_type=sa.Text(), type_=sa.String(length=10),
                           existing_nullable=False)
        batch.create_index("ix_merchants_pan", ["pan"])
