"""The suite's reuse of compiled code across apps (tests/support/compiled.py) behaves as
compiling afresh: URL builders build what werkzeug's own would (the same rule in two maps,
rules that differ only in defaults or converters), a template shared by two apps renders
each app's own values and is compiled again once its file changes, and a statement compiled on
one test's database runs on another's with that database's rows and its own values."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, render_template
from sqlalchemy import bindparam, select
from werkzeug.routing import Map, Rule

from portal.core.db import make_engine
from portal.core.models.user import User


def build(rules: list[Rule], endpoint: str, values: dict) -> str:
    """The path ``endpoint`` builds to with ``values`` in a new map of ``rules``."""
    return Map(rules).bind("portal.test").build(endpoint, values)


def test_a_rule_in_a_second_map_builds_the_same_url() -> None:
    for _ in range(2):
        assert build([Rule("/m/<int:mid>", endpoint="m")], "m", {"mid": 7, "q": "a b"}) == \
            "/m/7?q=a+b"


def test_rules_differing_in_converters_or_defaults_keep_their_own_builders() -> None:
    assert build([Rule("/m/<mid>", endpoint="m")], "m", {"mid": "a b"}) == "/m/a%20b"
    assert build([Rule("/p/<int(fixed_digits=3):n>", endpoint="p")], "p", {"n": 7}) == "/p/007"
    assert build([Rule("/p/<int:n>", endpoint="p")], "p", {"n": 7}) == "/p/7"
    assert build([Rule("/l", endpoint="l", defaults={"page": 1})], "l", {"page": 1}) == "/l"
    assert build([Rule("/l", endpoint="l")], "l", {"page": 1}) == "/l?page=1"


def rendered(folder: Path, greeting: str) -> str:
    """``page.html`` of ``folder`` rendered by a new app whose ``greeting`` global is given."""
    app = Flask(__name__, template_folder=str(folder))
    app.jinja_env.globals["greeting"] = greeting
    with app.app_context():
        return render_template("page.html", name="<Asha>")


def test_a_template_shared_by_apps_renders_each_apps_values_and_follows_its_file(tmp_path):
    (tmp_path / "page.html").write_text("{{ greeting }}, {{ name }}!", encoding="utf-8")
    assert rendered(tmp_path, "Hello") == "Hello, &lt;Asha&gt;!"
    assert rendered(tmp_path, "Namaste") == "Namaste, &lt;Asha&gt;!"
    (tmp_path / "page.html").write_text("{{ greeting }} {{ name }}.", encoding="utf-8")
    assert rendered(tmp_path, "Hello") == "Hello &lt;Asha&gt;."


def test_a_statement_compiled_for_one_database_runs_on_another_with_its_rows(tmp_path):
    statement = select(User.email).where(User.email != bindparam("other"))
    answers = []
    for name in ("a", "b"):
        engine = make_engine(f"sqlite:///{tmp_path / name}.db")
        User.metadata.create_all(engine, tables=[User.__table__])
        with engine.begin() as connection:
            connection.execute(User.__table__.insert(), [
                {"email": f"{name}@portal.test", "password_hash": "x", "role": "ops"}])
            result = connection.execute(statement, {"other": "nobody"})
            answers.append((result.scalars().all(), result.context.cache_hit))
        engine.dispose()
    assert [emails for emails, _ in answers] == [["a@portal.test"], ["b@portal.test"]]
    assert answers[1][1] == engine.dialect.CACHE_HIT  # compiled once, for the first database
