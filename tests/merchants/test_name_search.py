"""The list's "contains" search on SQLite goes through the trigram table of migration 0019 and
finds exactly what the LIKE search finds, whatever the names and the query hold."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, event, text, update

from portal.core.db import db
from portal.core.models import merchant_search
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.merchant_search import (
    SQLITE_HAS_TRIGRAM,
    covering_trigrams,
    ids_containing,
)
from portal.features.merchants.service import search_merchants

pytestmark = pytest.mark.skipif(not SQLITE_HAS_TRIGRAM, reason="SQLite older than 3.34")

#: (display name, legal name): quotes, LIKE's wildcards, FTS5's operators and syntax,
#: accents, mixed case, and a letter whose case folding is not ASCII's (the Kelvin sign).
NAMES = [
    ("O'Brien Café", ""),
    ('The "Best" Sweets', ""),
    ("100% Cotton Mills", "Hundred Percent Cotton Mills Private Limited"),
    ("Under_score Traders", ""),
    ("Underscore Traders", ""),
    ("ÉCOLE Supplies", ""),
    ("école supplies", ""),
    ("Mixed CaSe Textiles", "MIXED CASE TEXTILES LLP"),
    ("\u212aelvin Instruments", ""),
    ("Kelvin Tools", ""),
    ("Straße Bakers", ""),
    ("AND OR NOT Traders", ""),
    ("Near(Shop) Mart", ""),
    ("Star* Mart", ""),
    ("Col:umn Stores", "display_name: Holdings"),
    ("Back\\slash Agency", ""),
    ("Ünïcödé Gems", ""),
    ("Caret ^Start Foods", ""),
    ("Minus -Sign Exports", ""),
    ("Plus + Corner", ""),
]
QUERIES = [
    "'", '"', '""', '"Best"', 'The "Best', "'Brien", "100%", "%", "0% C", "_", "r_s", "Under_",
    "underscore", "café", "CAFÉ", "Café", "cafe", "école", "ÉCOLE", "École", "cole",
    "mixed case", "MIXED", "case textiles llp", "\u212aelvin", "kelvin", "KELVIN", "elvin",
    "straße", "STRASSE", "and", "AND OR", "NOT", "OR", "NEAR(", "near(shop)", "NEAR(a b)",
    "*", "star*", "Sta*", "Col:umn", "display_name:", "display_name: Hold", "legal_name:Col",
    "\\", "back\\", "k\\s", "ünï", "ÜNÏ", "ab", "a", "é", "ec", "(", ")", "()", "^", "^Start",
    "-", "-Sign", "+", "+ C", "' OR 1=1 --", '" OR "', '"" AND ""', "{display_name}: x",
    "Sweets", "Traders", "Mills Private", "nothing like it", "nul\x00", "\x00\x00\x00",
]


def add(app, *names: tuple[str, str]) -> dict[str, int]:
    """Merchants with these names (and ids that match none of the queries); ids by name."""
    ids = {}
    with app.app_context():
        for n, (display, legal) in enumerate(names):
            merchant = Merchant(external_onboarding_id=f"zz{n:04d}", pan=f"AAACB{n:04d}C",
                                display_name=display, legal_name=legal,
                                create_state=CreateState.DRAFT, checklist={},
                                documents_outstanding=[],
                                last_activity_at=datetime(2026, 1, 1, 0, n, tzinfo=UTC))
            db.session.add(merchant)
            db.session.flush()
            ids[display] = merchant.id
        db.session.commit()
    return ids


def found(query: str) -> list[int]:
    """The ids the list finds for ``query``, in its order."""
    return [row.merchant.id for row in search_merchants(query, per_page=100).rows]


def found_by_like(monkeypatch: pytest.MonkeyPatch, query: str) -> list[int]:
    """The ids the LIKE search alone finds (as on an SQLite without trigrams)."""
    with monkeypatch.context() as patched:
        patched.setattr(merchant_search, "SQLITE_HAS_TRIGRAM", False)
        return found(query)


def test_every_query_finds_what_the_like_search_finds(app, monkeypatch):
    add(app, *NAMES)
    with app.app_context():
        for query in QUERIES:
            assert found(query) == found_by_like(monkeypatch, query), query


@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4),
       data=st.data())
def test_any_names_and_query_find_what_the_like_search_finds(app, monkeypatch, names, data):
    part = st.sampled_from(names).flatmap(lambda name: st.tuples(
        st.just(name), st.integers(0, len(name)), st.integers(0, len(name)), st.booleans()))
    query = data.draw(st.one_of(
        st.text(min_size=1, max_size=6),  # anything, or a piece of a name, its case swapped
        part.map(lambda p: p[0][p[1]:p[2]].swapcase() if p[3] else p[0][p[1]:p[2]])))
    with app.app_context():
        db.session.execute(delete(Merchant))
        db.session.commit()
    add(app, *((name, name[::-1]) for name in names))
    with app.app_context():
        assert found(query) == found_by_like(monkeypatch, query)


def test_the_search_finds_names_as_like_does_case_folded_in_ascii_only(app):
    ids = add(app, *NAMES)
    with app.app_context():
        assert found("'brien CAF") == [ids["O'Brien Café"]]
        assert found("CAFÉ") == []  # É is not é for SQLite's LIKE, nor so here
        assert found("ÉCOLE") == [ids["ÉCOLE Supplies"]]
        assert found("_score") == [ids["Under_score Traders"]]  # '_' is no wildcard
        assert found('"Best"') == [ids['The "Best" Sweets']]
        assert found("NEAR(shop)") == [ids["Near(Shop) Mart"]]
        assert found("star*") == [ids["Star* Mart"]]
        assert found("display_name: h") == [ids["Col:umn Stores"]]  # its legal name
        assert found("kelvin") == [ids["Kelvin Tools"]]
        # the trigram table folds case beyond ASCII: it proposes more, the LIKE decides
        assert set(db.session.scalars(ids_containing("kelvin"))) == {
            ids["Kelvin Tools"], ids["\u212aelvin Instruments"]}
        assert set(db.session.scalars(ids_containing("CAFÉ"))) == {ids["O'Brien Café"]}


def test_a_query_of_three_characters_or_more_reads_the_trigram_table(app):
    add(app, *NAMES)
    seen: list[str] = []
    with app.app_context():
        event.listen(db.engine(app), "before_cursor_execute",
                     lambda _c, _cur, statement, *_: seen.append(statement))
        found("Sweets")
        assert any("MATCH" in statement for statement in seen)
        seen.clear()
        found("ab")  # shorter than a trigram: the LIKE reads the table
        assert seen and not any("MATCH" in statement for statement in seen)


def test_the_trigram_table_follows_every_insert_update_and_delete(app):
    ids = add(app, ("Zanzibar Spice Route", ""))
    merchant_id = ids["Zanzibar Spice Route"]
    with app.app_context():
        def indexed(query: str) -> set[int]:
            return set(db.session.scalars(ids_containing(query)))

        assert indexed("zibar sp") == {merchant_id}
        db.session.execute(update(Merchant).where(Merchant.id == merchant_id).values(
            display_name="Kashmir Saffron", legal_name="Saffron House LLP",
            onboarding_id="pg_onboard_zz9"))
        db.session.commit()
        assert indexed("zibar") == set()
        assert indexed("saffron") == indexed("house llp") == indexed("board_zz") == {merchant_id}
        assert found("kashmir") == [merchant_id]
        db.session.execute(text(
            "INSERT INTO merchant_search (merchant_search, rank) VALUES ('integrity-check', 1)"))
        db.session.execute(delete(Merchant).where(Merchant.id == merchant_id))
        db.session.commit()
        assert indexed("saffron") == set()
        db.session.execute(text(
            "INSERT INTO merchant_search (merchant_search, rank) VALUES ('integrity-check', 1)"))


def test_the_match_asks_for_the_tiles_of_the_query_each_quoted():
    assert covering_trigrams("Sweets") == '"Swe" AND "ets"'
    assert covering_trigrams('a"b OR c*') == '"a""b" AND " OR" AND " c*"'
    assert covering_trigrams("abcd") == '"abc" AND "bcd"'  # the last tile overlaps
    assert covering_trigrams("abcdabc") == '"abc" AND "dab"'  # each tile asked once
