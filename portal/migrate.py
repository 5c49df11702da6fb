"""Run the Alembic migrations from code (tests, ``make run`` and the CLI use the same path)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from portal.config import ROOT


def alembic_config(url: str) -> Config:
    """An Alembic config for the project's migrations against ``url``."""
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["url"] = url
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Migrate the database at ``url`` to ``revision``."""
    command.upgrade(alembic_config(url), revision)
