"""The kinds of value a configuration variable holds, and how a settings field names its
variable: the building blocks of :mod:`portal.core.config`'s one settings model."""

from __future__ import annotations

import re
from decimal import Decimal
from ipaddress import ip_network
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field
from pydantic.fields import FieldInfo
from pydantic_settings import NoDecode

from portal.gateway.rules import check_email

#: The project's folder: relative paths in the configuration are relative to it.
ROOT = Path(__file__).resolve().parents[2]
INSTANCE = ROOT / "instance"
#: The env file ``make run`` writes; read when PORTAL_ENV_FILE names no other.
DEV_ENV_FILE = INSTANCE / "portal.env"
#: The project's own env file; its values outrank the PORTAL_ENV_FILE file's.
DOT_ENV = ROOT / ".env"


def _flag(value: object) -> object:
    """Read a yes/no variable as before: 1, true or yes (any case) is on, anything else off."""
    return value.strip().lower() in ("1", "true", "yes") if isinstance(value, str) else value


def _comma_list(value: object) -> object:
    """Split a comma-separated variable into its non-empty, stripped items."""
    if isinstance(value, str):
        return tuple(item.strip() for item in value.split(",") if item.strip())
    return value


def _sqlite_under_root(url: str) -> str:
    """A relative SQLite path is relative to the project folder, not the working directory."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != prefix + ":memory:":
        return prefix + str(ROOT / url[len(prefix):])
    return url


def _networks(values: tuple[str, ...]) -> tuple[str, ...]:
    """Each address or network (CIDR) in its normal form (an address is its own network)."""
    networks = []
    for value in values:
        try:
            networks.append(str(ip_network(value, strict=False)))
        except ValueError:
            raise ValueError(f"{value} is not an address or a network such as "
                             "203.0.113.0/24") from None
    return tuple(networks)


Flag = Annotated[bool, BeforeValidator(_flag)]
CommaList = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_comma_list)]
Networks = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_comma_list),
                     AfterValidator(_networks)]
Address = Annotated[str, AfterValidator(lambda url: url.rstrip("/"))]
Folder = Annotated[str, AfterValidator(lambda path: str(ROOT / path))]
DatabaseUrl = Annotated[str, AfterValidator(_sqlite_under_root)]
Lowercase = Annotated[str, AfterValidator(lambda value: value.strip().lower())]
#: Most rows of a bulk import in flight at once: few enough to stay a fair client.
MAX_BULK_CONCURRENCY = 16
BulkConcurrency = Annotated[int, Field(ge=1, le=MAX_BULK_CONCURRENCY)]
PositiveSeconds = Annotated[int, Field(ge=1)]
PositiveCount = Annotated[int, Field(ge=1)]
PositiveHours = Annotated[float, Field(gt=0)]
HourOfDay = Annotated[int, Field(ge=0, le=23)]


def _absolute_path(value: str) -> str:
    if not value.startswith("/") or any(c in value for c in "?# "):
        raise ValueError("use a path that starts with /, such as /gl/v1/payments/initiate/hosted")
    return value.rstrip("/")


InitiatePath = Annotated[str, AfterValidator(_absolute_path)]


def _storage_url(value: str) -> str:
    value = value.strip().rstrip("/")
    bucket = value.removeprefix("s3://").partition("/")[0]
    if value and (not value.startswith("s3://") or not _BUCKET.fullmatch(bucket)):
        raise ValueError("leave it empty for the upload folder, or name a bucket as "
                         "s3://bucket/prefix, such as s3://acme-portal-documents/portal")
    return value


#: A bucket's name as S3 allows it: 3 to 63 lower-case letters, digits, dots and hyphens.
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
StorageUrl = Annotated[str, AfterValidator(_storage_url)]
#: An email address (normalised), or empty.
OptionalEmail = Annotated[str, AfterValidator(
    lambda value: check_email(value.strip()) if value.strip() else "")]
#: An amount, or None when the variable is empty.
OptionalAmount = Annotated[Decimal | None, BeforeValidator(
    lambda value: None if isinstance(value, str) and not value.strip() else value)]


def variable(name: str, default: object, meaning: str, *, required: bool = False,
             secret: bool = False, random: bool = False, shown: str | None = None) -> Any:
    """A settings field read from the variable ``name``. ``required``: production refuses to
    start without it; ``secret``: kept out of the settings' repr; ``random``: production
    refuses less than 32 bytes of randomness in it (``config_errors.weak_secret``); ``shown``:
    the documented table's Default column when the literal default would mislead."""
    return Field(default, validation_alias=name, description=meaning, repr=not secret,
                 json_schema_extra={"required": required, "shown": shown, "random": random})


def env_name(info: FieldInfo) -> str:
    """The variable a settings field is read from."""
    return str(info.validation_alias)


def field_options(info: FieldInfo) -> dict[str, Any]:
    """What ``variable()`` recorded beside the default: ``required`` and ``shown``."""
    return info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
