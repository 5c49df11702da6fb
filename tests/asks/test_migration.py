"""The migration of the merchant's words to one per language: words written before are kept
as the language ops chose for the merchant; and it goes back."""

from __future__ import annotations

import json

from alembic import command
from sqlalchemy import inspect, text

from portal.core.db import make_engine
from portal.core.migrate import alembic_config, upgrade
from tests.support.revisions import revision_named
from tests.support.rows import MERCHANT_SQL


def test_words_written_before_are_kept_in_the_merchants_language(any_database_url):
    revision, before = revision_named("_ask_words_per_language.py")
    upgrade(any_database_url, before)
    engine = make_engine(any_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(MERCHANT_SQL, [{"ext": "en", "name": "English", "status": "RFI"},
                                        {"ext": "hi", "name": "Hindi", "status": "RFI"}])
            conn.execute(text("UPDATE merchants SET language = 'hi' "
                              "WHERE external_onboarding_id = 'hi'"))
            ids = dict(conn.execute(text("SELECT external_onboarding_id, id FROM merchants")).all())
            conn.execute(text(
                "INSERT INTO document_asks (merchant_id, doc_key, merchant_words, ops_words, "
                "updated_at, updated_by) VALUES (:m, 'k', :words, NULL, '2026-01-01', 'ops')"),
                [{"m": ids["en"], "words": "Your March statement"},
                 {"m": ids["hi"], "words": "मार्च का स्टेटमेंट"},
                 {"m": ids["en"], "words": None}])
        upgrade(any_database_url, revision)
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT merchant_texts FROM document_asks ORDER BY id"))
            found = [row[0] for row in rows]
        decoded = [value if not isinstance(value, str) else json.loads(value)
                   for value in found]
        assert decoded == [{"en": "Your March statement"}, {"hi": "मार्च का स्टेटमेंट"}, None]
        command.downgrade(alembic_config(any_database_url), before)
        with engine.connect() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("document_asks")}
            back = [row[0] for row in conn.execute(text(
                "SELECT merchant_words FROM document_asks ORDER BY id"))]
        assert "merchant_texts" not in columns
        assert back == ["Your March statement", "मार्च का स्टेटमेंट", None]
        upgrade(any_database_url)
    finally:
        engine.dispose()
