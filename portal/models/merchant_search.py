"""SQLite's full-text table over the merchants' names and ids (migration 0019): an FTS5 index
with the trigram tokenizer, kept in step with ``merchants`` by triggers, which finds a
"contains" search's candidates without reading every merchant. PostgreSQL has none (its
pg_trgm indexes serve the same search), and an SQLite older than 3.34 has no trigrams."""

from __future__ import annotations

import sqlite3

from sqlalchemy import ColumnElement, Select, column, literal_column, select, table

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


def ids_containing(text: str) -> Select[tuple[int]]:
    """The ids of merchants with ``text`` in a searched column, case folded (a superset of a
    case-insensitive LIKE: the caller keeps its LIKE to decide each candidate)."""
    match: ColumnElement[bool] = literal_column(SEARCH_TABLE).op("MATCH")(quoted_phrase(text))
    return select(merchant_search.c.rowid).where(match)
