"""Column types shared by the models."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Text
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from portal.core.encryption import current_cipher


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite stores it naive, as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Refuse naive datetimes; store UTC (naive on SQLite, which has no time zones)."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: use portal.core.clock.utcnow() or an aware datetime")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Hand back an aware UTC datetime whatever the backend returned."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class EncryptedText(TypeDecorator[str]):
    """Text stored only as a Fernet token under the KYC keys (see portal.core.encryption)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        """Encrypt under the newest key."""
        return None if value is None else current_cipher().encrypt(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        """Decrypt with whichever configured key made the token."""
        return None if value is None else current_cipher().decrypt(value)


class EncryptedJSON(TypeDecorator[Any]):
    """A JSON document stored only as a Fernet token of its text under the KYC keys."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        """Serialise, then encrypt under the newest key."""
        if value is None:
            return None
        return current_cipher().encrypt(json.dumps(value, separators=(",", ":")))

    def process_result_value(self, value: str | None, dialect: Dialect) -> Any:
        """Decrypt, then parse."""
        return None if value is None else json.loads(current_cipher().decrypt(value))
