"""Run the Alembic migrations from code (tests, ``make run`` and the CLI use the same path)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from portal.core.config import Settings
from portal.core.config_fields import ROOT
from portal.core.models.merchant_search import SEARCH_TABLE


def alembic_config(url: str, settings: Settings | None = None) -> Config:
    """An Alembic config for the project's migrations against ``url``; data migrations take
    their keys from ``settings`` (default: the environment)."""
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["url"] = url
    if settings is not None:
        config.attributes["settings"] = settings
    return config


def upgrade(url: str, revision: str = "head", settings: Settings | None = None) -> None:
    """Migrate the database at ``url`` to ``revision``."""
    command.upgrade(alembic_config(url, settings), revision)


#: Indexes only PostgreSQL has (trigram, migration 0018), so the models do not declare them.
POSTGRESQL_ONLY_INDEXES = frozenset(
    f"ix_merchants_{name}_trgm"
    for name in ("display_name", "legal_name", "external_onboarding_id", "onboarding_id"))


def include_object(_obj: object, name: str | None, type_: str, _reflected: bool,
                   _compare_to: object) -> bool:
    """Whether autogenerate compares a schema object: not the PostgreSQL-only indexes, nor
    SQLite's full-text table and its shadow tables."""
    if type_ == "table":
        return not (name or "").startswith(SEARCH_TABLE)  # with _data, _idx, ...
    return not (type_ == "index" and name in POSTGRESQL_ONLY_INDEXES)
