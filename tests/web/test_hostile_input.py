"""Hostile input gets a 404 or a 400 with a clear message, never a 500: over-long ids in paths
and queries, deeply nested webhook JSON; then Hypothesis throws arbitrary path segments, query
strings and bodies at every route of ``app.url_map`` as each role and finds no 500."""

from __future__ import annotations

import io
import json
import re
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from argon2 import PasswordHasher, profiles
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as fuzz_settings
from hypothesis import strategies as st
from werkzeug.routing import Rule

from portal.app.factory import create_app
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.steps import STEPS
from portal.gateway.onboarding.hmac import DIGEST_HEADER, hmac_digest
from tests.support.accounts import AuthActions
from tests.support.routes import STATIC_FILES, get_urls, seed_rows
from tests.support.sandbox import serve_sandbox
from tests.support.settings import SANDBOX_CONFIG, settings_for, with_payments

#: A number no id column holds (PostgreSQL's INTEGER and SQLite's 64 bits alike).
HUGE = "9" * 30
ROLES = ("anonymous", "ops", "admin")
#: The fuzz's own sign-ins come from another address than its requests, whose failed sign-ins
#: must not pause them.
SIGN_IN_ADDRESS = "198.51.100.7"


@pytest.fixture
def ops(auth, client):
    """``client`` signed in as ops."""
    auth.login("ops")
    return client


def a_merchant(app: Flask) -> int:
    """A merchant row straight in the database (nothing sent yet)."""
    with app.app_context():
        merchant = Merchant(external_onboarding_id="EXT-HOSTILE-1", pan="AAKCH1234Q")
        db.session.add(merchant)
        db.session.commit()
        return merchant.id


# ---------------------------------------------------------------- the cases the issue names


def test_an_over_long_id_in_any_route_is_a_404(app, client, auth):
    auth.login("admin")
    with_ids = [rule for rule in app.url_map.iter_rules() if "<int:" in rule.rule]
    assert len(with_ids) > 20
    for rule in with_ids:
        path = re.sub(r"<int:[a-z_]+>", HUGE, rule.rule).replace("<step_key>", "business")
        method = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})[0]
        assert client.open(path, method=method).status_code == 404, path


@pytest.mark.parametrize("path", [f"/merchants/{HUGE}", f"/payments/{HUGE}",
                                  f"/merchants/{HUGE}/payments/new", f"/merchants/{2**31}"])
def test_an_over_long_id_is_a_404(ops, path):
    response = ops.get(path)
    assert response.status_code == 404
    assert "There is nothing at this address" in response.get_data(as_text=True)


@pytest.mark.parametrize("resume", [HUGE, "abc", "-1", "0", "12.5", "99"])
def test_resuming_a_hold_that_is_not_there_is_a_404(app, ops, resume):
    merchant_id = a_merchant(app)
    response = ops.get(f"/merchants/{merchant_id}/payments/new?resume={resume}",
                       headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert response.json["message"] == (
        "This merchant has no payment with that number to send again.")


@pytest.mark.parametrize("signed", [False, True])
def test_deeply_nested_webhook_json_is_a_400(settings, signed):
    secrets = (settings.api_secret,) if signed else ()  # unsigned: anyone on the internet
    app = create_app(settings.with_changes(webhook_secrets=secrets))
    body = ("[" * 5000 + "]" * 5000).encode()
    headers = {DIGEST_HEADER: hmac_digest(settings.api_secret, body)} if signed else {}
    response = app.test_client().post("/webhooks/onboarding", data=body, headers=headers,
                                      content_type="application/json")
    assert response.status_code == 400
    assert response.json == {"outcome": "JSON nested too deeply"}


@pytest.mark.parametrize("body", ["[[]]", "[" * 5000 + "]" * 5000, '{"current_password": [1]}'])
def test_a_json_body_where_a_form_is_expected_is_a_400(ops, body):
    response = ops.post("/account/password", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json["message"] == "This address takes a form, not JSON."


# ---------------------------------------------------------------- the fuzz


@dataclass(frozen=True)
class World:
    """The portal with one row of each kind, and what its pages offer to type into."""

    app: Flask
    ids: dict[str, Any]
    field_names: list[str]
    #: A signed-in client per role, reused across examples while its session lasts.
    signed_in: dict[str, FlaskClient] = field(default_factory=dict)


@pytest.fixture(scope="module")
def world(migrated_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One portal for every fuzzed route (the examples share its rows, as users share a
    portal): webhooks unsigned so anyone's body is parsed, CSRF off so forms are read."""
    folder = tmp_path_factory.mktemp("fuzz")
    shutil.copy(migrated_template, folder / "portal.db")
    with serve_sandbox(SANDBOX_CONFIG) as sandbox, pytest.MonkeyPatch.context() as patch:
        patch.setattr("portal.domain.users.passwords.hasher",
                      PasswordHasher.from_parameters(profiles.CHEAPEST))
        configured = with_payments(settings_for(
            f"sqlite:///{folder / 'portal.db'}", sandbox.url, folder), sandbox, folder)
        app = create_app(configured.with_changes(webhook_secrets=()))
        app.config["WTF_CSRF_ENABLED"] = False
        admin = app.test_client()
        AuthActions(app, admin).create("ops")
        AuthActions(app, admin).login("admin")
        ids = seed_rows(app, admin, configured)
        yield World(app, ids, sorted(field_names(admin, get_urls(app, ids))))


def field_names(client, urls: Iterator[tuple[str, str]]) -> set[str]:
    """The name of every input, select and textarea the pages show."""
    names: set[str] = set()
    for _endpoint, url in urls:
        with client.get(url) as response:
            if response.mimetype == "text/html":
                soup = BeautifulSoup(response.data, "html.parser")
                names |= {str(tag["name"]) for tag in soup.select("[name]")
                          if tag.name in ("input", "select", "textarea")}
    return names


#: Values that broke or could break a parser: huge and negative numbers, far dates, controls.
HOSTILE = [HUGE, "-1", "0", "2147483648", "1e309", "NaN", "9999-12-31", "0001-01-01", "",
           " ", "%", "%00", "\x00", "'", '"', "<script>x</script>", "../../etc/passwd",
           "\u0661\u0662", "\U0001d518", "[" * 3000, "=2*3", "Acme;=2*3", "send", "draft", "y"]
#: Query parameters the routes read.
QUERY_NAMES = ["page", "q", "status", "resume", "token", "next", "date_from", "date_to",
               "merchant", "actor", "action", "outcome", "scenario"]
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40))
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                           max_leaves=8)


def segment(name: str, ids: dict[str, Any]) -> st.SearchStrategy[str]:
    """A path part for the rule argument ``name``: a real value or anything at all."""
    real = [str(ids[name])] if name in ids else []
    real += [s.key for s in STEPS] if name == "step_key" else []
    real += list(STATIC_FILES.values()) if name == "filename" else []
    return st.one_of(st.sampled_from(real or HOSTILE), st.sampled_from(HOSTILE),
                     st.integers(-(2**70), 2**70).map(str), st.text(max_size=20))


def body(field_names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Keyword arguments of ``client.open`` for a body: a form (perhaps with a file) or JSON."""
    form = st.dictionaries(st.one_of(st.sampled_from(field_names), st.text(max_size=10)),
                           values, max_size=6)
    upload = st.tuples(st.binary(max_size=200), st.text(max_size=20)).map(
        lambda file: (io.BytesIO(file[0]), file[1] or "x"))
    return st.one_of(
        form.map(lambda data: {"data": data}),
        st.tuples(form, upload).map(lambda both: {"data": {**both[0], "file": both[1]},
                                                  "content_type": "multipart/form-data"}),
        json_values.map(lambda value: {"data": json.dumps(value),
                                       "content_type": "application/json"}),
        st.integers(1, 6000).map(lambda depth: {"data": "[" * depth + "]" * depth,
                                                "content_type": "application/json"}),
    )


def every_route() -> list[tuple[str, str]]:
    """(rule, method) of every route of the portal, HEAD and OPTIONS aside."""
    app = create_app(settings_for("sqlite://", "http://127.0.0.1:9", Path("/nonexistent")))
    return sorted({(rule.rule, method) for rule in app.url_map.iter_rules()
                   for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}})


def rule_of(app: Flask, path: str) -> Rule:
    """The rule with this path pattern."""
    return next(r for r in app.url_map.iter_rules() if r.rule == path)


def signed_in(world: World, role: str):
    """A test client signed in as a user of ``role`` (anonymous: a fresh one). The role's
    client is reused while its session lasts; once an example has ended it (signed out,
    changed the password, failed password checks), the next gets a new user, so nothing an
    example did locks the next one out."""
    if role == "anonymous":
        return world.app.test_client()
    client = world.signed_in.get(role)
    if client is not None and still_signed_in(client):
        return client
    client = world.signed_in[role] = world.app.test_client()
    client.environ_base["REMOTE_ADDR"] = SIGN_IN_ADDRESS
    auth = AuthActions(world.app, client)
    answer = auth.login(role, auth.create(role, f"{role}-{uuid.uuid4().hex[:12]}@example.com"))
    assert answer.status_code == 302, f"{role} could not sign in"
    assert not answer.headers["Location"].startswith("/login"), f"{role} could not sign in"
    client.environ_base["REMOTE_ADDR"] = "127.0.0.1"
    return client


def still_signed_in(client) -> bool:
    """Whether the client's session still reaches a page (the home redirect, not sign-in)."""
    with client.get("/") as home:
        return home.status_code == 302 and not home.headers["Location"].startswith("/login")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("pattern", "method"), every_route())
@fuzz_settings(max_examples=5, deadline=None, derandomize=True, database=None,
               phases=[Phase.explicit, Phase.generate],  # a failure is shown as found, unshrunk
               suppress_health_check=[HealthCheck.function_scoped_fixture,
                                      HealthCheck.too_slow])
@given(data=st.data())
def test_no_input_makes_any_route_fail(world, pattern, method, role, data):
    rule = rule_of(world.app, pattern)
    parts = {name: data.draw(segment(name, world.ids), label=name) for name in rule.arguments
             if name not in (rule.defaults or {})}
    path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>",
                  lambda m: quote(parts[m.group(1)], safe=""), rule.rule)
    query = data.draw(st.lists(st.tuples(st.sampled_from(QUERY_NAMES) | st.text(max_size=8),
                                         values), max_size=4), label="query")
    sent = data.draw(body(world.field_names), label="body") if method != "GET" else {}
    client = signed_in(world, role)
    with client.open(path, method=method, query_string=query, **sent) as response:
        assert response.status_code != 500, (method, path, query, response.status_code)
