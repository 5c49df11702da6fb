"""Migration 0048 (file ``_mail_template_languages``): the admins' versions already there become
the English ones, each language then has its own, and going back keeps the English ones."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from portal.core.db import make_engine
from portal.core.migrate import alembic_config, upgrade
from tests.support.revisions import revision_named

INSERT = ("INSERT INTO mail_templates (key, {language}subject, body, updated_at, updated_by) "
          "VALUES (:key, {value}:subject, :body, '2026-12-01 10:00:00+00:00', 'admin@x.test')")


def test_versions_there_become_english_and_each_language_gets_its_own(any_database_url):
    revision, before = revision_named("_mail_template_languages.py")
    upgrade(any_database_url, before)
    engine = make_engine(any_database_url)
    rows = text("SELECT key, language, subject FROM mail_templates ORDER BY key, language")
    try:
        with engine.begin() as conn:
            conn.execute(text(INSERT.format(language="", value="")), [
                {"key": "merchant_link", "subject": "Verify", "body": "$link"},
                {"key": "owner_notice", "subject": "Notice", "body": "$link"}])
        upgrade(any_database_url, revision)
        with engine.begin() as conn:
            assert conn.execute(rows).all() == [("merchant_link", "en", "Verify"),
                                                ("owner_notice", "en", "Notice")]
            conn.execute(text(INSERT.format(language="language, ", value=":language, ")), {
                "key": "merchant_link", "language": "hi", "subject": "सत्यापन", "body": "$link"})
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(text(INSERT.format(language="language, ", value=":language, ")), {
                "key": "merchant_link", "language": "hi", "subject": "दो बार", "body": "$link"})
        command.downgrade(alembic_config(any_database_url), before)
        with engine.connect() as conn:
            assert "language" not in {c["name"] for c in inspect(conn).get_columns(
                "mail_templates")}
            assert conn.execute(text("SELECT key, subject FROM mail_templates ORDER BY key")
                                ).all() == [("merchant_link", "Verify"), ("owner_notice", "Notice")]
        upgrade(any_database_url)
    finally:
        engine.dispose()
