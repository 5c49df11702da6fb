"""A migration found by its file's name: its revision changes when branches are merged and the
migrations renumbered, its name does not."""

from __future__ import annotations

from alembic.script import ScriptDirectory

from portal.core.migrate import alembic_config


def revision_named(file_ending: str) -> tuple[str, str]:
    """The revision of the migration whose file ends with ``file_ending``, and the one before."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    found = next(r for r in script.walk_revisions() if r.path.endswith(file_ending))
    return found.revision, str(found.down_revision)
