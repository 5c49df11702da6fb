"""SQLite's full-text table over the merchants' names and ids (migration 0019): an FTS5 index
with the trigram tokenizer, kept in step with ``merchants`` by triggers, which finds a
"contains" search's candidates without reading every merchant. PostgreSQL has none (its
pg_trgm indexes serve the same search), and an SQLite older than 3.34 has no trigrams.
``names_contain`` is the one "contains" search over the names and ids, used by every list
that finds merchants (or their payments) by a piece of a name."""

from __future__ import annotations

import sqlite3

from sqlalchemy import ColumnElement, Select, and_, column, literal_column, or_, select, table

from portal.core.db import db
from portal.core.models.merchant import Merchant

#: The virtual table's name; no model declares it (it is no ordinary table).
SEARCH_TABLE = "merchant_search"
#: Whether this SQLite has the trigram tokenizer (3.34 and later).
SQLITE_HAS_TRIGRAM = sqlite3.sqlite_version_info >= (3, 34)
#: A trigram index finds nothing shorter than a trigram: shorter queries read the table.
SHORTEST_INDEXED = 3

merchant_search = table(SEARCH_TABLE, column("rowid"))


def quoted_phrase(text: str) -> str:
    """``text`` as one FTS5 phrase (in double quotes, inner ones doubled), so its quotes,
    operators, column names and asterisks are searched as characters, never parsed."""
    return '"' + text.replace('"', '""') + '"'


def covering_trigrams(text: str) -> str:
    """An FTS5 query for rows holding every trigram that tiles ``text`` (every third one and
    the last), each a quoted phrase, joined by AND. Every row containing ``text`` matches, and
    few others; it reads a third of the trigrams a phrase of them all would, and no positions
    (at 100,000 merchants a full name's phrase took 1.3 ms, this 0.6 ms)."""
    tiles = [text[start:start + 3] for start in range(0, len(text) - 2, 3)]
    if len(text) % 3:
        tiles.append(text[-3:])
    return " AND ".join(quoted_phrase(tile) for tile in dict.fromkeys(tiles))


def ids_containing(text: str) -> Select[tuple[int]]:
    """The ids of merchants that may hold ``text`` (at least three characters) in a searched
    column: all that do, case folded, and perhaps others (the tiles in another order or
    column), so the caller keeps its LIKE to decide each candidate."""
    match: ColumnElement[bool] = literal_column(SEARCH_TABLE).op("MATCH")(
        covering_trigrams(text))
    return select(merchant_search.c.rowid).where(match)


def contains_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _sqlite_trigrams_serve(text: str) -> bool:
    """Whether SQLite's trigram table can find ``text``: a trigram long at least, and without
    a NUL (which ends the text for FTS5's query parser)."""
    return (SQLITE_HAS_TRIGRAM and len(text) >= SHORTEST_INDEXED and "\x00" not in text
            and db.session.get_bind().dialect.name == "sqlite")


def names_contain(text: str) -> ColumnElement[bool]:
    """Merchants with ``text`` anywhere in a name or an id, case folded. On PostgreSQL the
    trigram indexes of migration 0018 serve the LIKE; on SQLite the trigram table of 0019
    finds the candidates and the LIKE decides each, so both find the same."""
    like = contains_pattern(text)
    names: ColumnElement[bool] = or_(
        Merchant.display_name.ilike(like, escape="\\"),
        Merchant.legal_name.ilike(like, escape="\\"),
        Merchant.external_onboarding_id.ilike(like, escape="\\"),
        Merchant.onboarding_id.ilike(like, escape="\\"),
    )
    if _sqlite_trigrams_serve(text):
        names = and_(Merchant.id.in_(ids_containing(text)), names)
    return names
