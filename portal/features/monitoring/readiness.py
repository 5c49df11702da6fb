"""Is this process ready for traffic? The database answers, its schema is at the migrations'
head, and the gateway answers within a short timeout. Each failed check says why in words,
without addresses, names or error texts that could help an attacker."""

from __future__ import annotations

from functools import cache

from alembic.script import ScriptDirectory
from sqlalchemy import column, select, table, text
from sqlalchemy.exc import SQLAlchemyError

from portal.core.config import Settings
from portal.core.db import db
from portal.core.migrate import alembic_config
from portal.gateway.probe import gateway_answers

OK = "ok"
#: Alembic's record of the revisions applied (read directly: its MigrationContext would log two
#: lines on every probe).
VERSIONS = table("alembic_version", column("version_num"))


@cache
def migration_heads() -> frozenset[str]:
    """The head revisions of the code's migrations (read once per process)."""
    return frozenset(ScriptDirectory.from_config(alembic_config("")).get_heads())


def database_problem() -> str:
    """'' when the database answers a trivial query, else what is wrong."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        return "The database cannot be reached."
    finally:
        db.session.rollback()
    return ""


def migrations_problem() -> str:
    """'' when the database is at the code's migration head, else how it differs."""
    try:
        current = frozenset(db.session.scalars(select(VERSIONS.c.version_num)))
    except SQLAlchemyError:
        return "The database's migration revision cannot be read."
    finally:
        db.session.rollback()
    if current == migration_heads():
        return ""
    return (f"The database is at migration {', '.join(sorted(current)) or 'none'}; the code "
            f"expects {', '.join(sorted(migration_heads()))}. Run: flask --app app db upgrade")


def gateway_problem(settings: Settings) -> str:
    """'' when the onboarding gateway answers in time, else that it did not."""
    if gateway_answers(settings.onboarding_url, settings.ready_gateway_timeout):
        return ""
    return f"The gateway did not answer within {settings.ready_gateway_timeout:g} seconds."


def readiness(settings: Settings) -> dict[str, str]:
    """Each check's name with 'ok' or its problem; the migrations are not checked without a
    database."""
    database = database_problem()
    if database:
        migrations = "Not checked: the database cannot be reached."
    else:
        migrations = migrations_problem()
    checks = {"database": database, "migrations": migrations,
              "gateway": gateway_problem(settings)}
    return {name: problem or OK for name, problem in checks.items()}
