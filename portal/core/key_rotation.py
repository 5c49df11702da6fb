"""Re-encrypting stored values under the newest key, after a new key was put first in
KYC_ENCRYPTION_KEYS or CREDENTIALS_KEY (``flask --app app keys rotate``); the PAN's blind index
is recomputed on the way, so PAN_INDEX_KEY can be changed the same way.

Values are read and written as the raw tokens (plain SQL on the columns), a batch at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from cryptography.fernet import MultiFernet
from sqlalchemy.engine import Connection

from portal.core.encryption import Cipher
from portal.core.models import Base
from portal.core.models.types import EncryptedJSON, EncryptedText

BATCH = 500
#: The column that holds Fernet tokens under CREDENTIALS_KEY.
PRIVATE_KEYS = ("payment_credentials", "private_key_encrypted")
#: The column whose blind index follows it.
PAN = ("merchants", "pan")

#: Computes a row's new column values from the value read.
Change = Callable[[str], dict[str, str | None]]


def rewrite_column(connection: Connection, table: str, column: str, change: Change) -> int:
    """Replace each row's ``column`` by what ``change`` computes from it; the rows changed."""
    rows = sa.table(table, sa.column("id", sa.Integer), sa.column(column, sa.Text))
    last, changed = 0, 0
    while True:
        batch = connection.execute(
            sa.select(rows.c.id, rows.c[column]).where(rows.c.id > last)
            .order_by(rows.c.id).limit(BATCH)).all()
        if not batch:
            return changed
        for row_id, value in batch:
            if value is not None:
                values = change(value)
                target = sa.table(table, sa.column("id", sa.Integer),
                                  *(sa.column(name, sa.Text) for name in values))
                connection.execute(sa.update(target).where(target.c.id == row_id)
                                   .values(**values))
                changed += 1
        last = batch[-1][0]


@dataclass(frozen=True)
class Rotated:
    """How many values were re-encrypted."""

    kyc_values: int
    private_keys: int


def kyc_columns() -> list[tuple[str, str]]:
    """Every (table, column) the models store encrypted under the KYC keys."""
    return [(table.name, column.name) for table in Base.metadata.sorted_tables
            for column in table.columns if isinstance(column.type, EncryptedJSON | EncryptedText)]


def rotate(connection: Connection, cipher: Cipher, credentials: MultiFernet | None) -> Rotated:
    """Re-encrypt every KYC value (and, with ``credentials``, every private key) under the
    newest key, and recompute the PAN blind indexes; no commit."""
    count = rewrite_column(connection, *PAN, lambda token: {
        PAN[1]: cipher.rotate(token), "pan_index": cipher.pan_index(cipher.decrypt(token))})
    for table, column in kyc_columns():
        if (table, column) != PAN:
            count += rewrite_column(connection, table, column,
                                    lambda token, column=column: {column: cipher.rotate(token)})
    keys = 0
    if credentials is not None:
        keys = rewrite_column(connection, *PRIVATE_KEYS, lambda token: {
            PRIVATE_KEYS[1]: credentials.rotate(token.encode("ascii")).decode("ascii")})
    return Rotated(count, keys)
