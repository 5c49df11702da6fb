"""Error pages in words: every 4xx reads as the portal's sentence, never the library's English;
an address only a form posts to, opened in a browser (Back, a bookmark, a reload), leads to the
page its form is on, saying nothing was done."""

from __future__ import annotations

import contextlib

import pytest
from bs4 import BeautifulSoup
from flask import abort
from werkzeug.exceptions import MethodNotAllowed, default_exceptions
from werkzeug.routing import RequestRedirect
from werkzeug.routing.converters import NumberConverter

from portal.app.factory import create_app
from portal.core.config import Settings
from portal.web.auth.access import public
from portal.web.errors import REOPENED
from tests.support.team import make_merchant

REASON = "That external id is taken by another merchant."
CLIENT_ERRORS = sorted(code for code in default_exceptions if 400 <= code < 500)


@pytest.fixture
def aborting_client(settings: Settings):
    """The portal with a test-only page answering any status it is asked for."""
    app = create_app(settings)

    @app.get("/_test/status/<int:code>")
    @public
    def status(code: int) -> str:
        """Refuse with ``code``, as a view does with abort()."""
        raise default_exceptions[code]()

    @app.get("/_test/refuse")
    @public
    def refuse() -> str:
        """Refuse in the portal's own words."""
        abort(409, REASON)

    return app.test_client()


@pytest.mark.parametrize("code", CLIENT_ERRORS)
def test_every_client_error_page_is_in_words(aborting_client, code):
    # a 405 as routing answers it: a method the page does not take (a GET would be led on)
    response = aborting_client.open(f"/_test/status/{code}", headers={"Accept": "text/html"},
                                    method="PUT" if code == 405 else "GET")
    assert response.status_code == code
    page = BeautifulSoup(response.data, "html.parser")
    error = default_exceptions[code]()
    text = page.get_text(" ")
    assert error.description not in text and error.name not in page.h1.get_text()
    assert page.select_one("section.card p").get_text(strip=True).endswith(".")


def test_a_reason_the_portal_gives_is_its_message(aborting_client):
    page = BeautifulSoup(aborting_client.get("/_test/refuse").data, "html.parser")
    assert page.h1.get_text() == "Something changed while you were working"
    assert REASON in page.get_text()


def post_only_rules(app):
    return sorted((rule for rule in app.url_map.iter_rules()
                   if "POST" in (rule.methods or ()) and "GET" not in (rule.methods or ())),
                  key=lambda rule: rule.rule)


def filled(rule) -> str:
    """The rule's address with every part filled in (ids 1, words "x")."""
    numbers = {name for name, converter in rule._converters.items()
               if isinstance(converter, NumberConverter)}
    values = {name: 1 if name in numbers else "x" for name in rule.arguments}
    built = rule.build(values, append_unknown=False)
    assert built is not None, rule.rule
    return built[1]


def test_every_post_only_address_opened_in_a_browser_leads_to_a_page(app, auth, client):
    auth.login("admin")
    adapter = app.url_map.bind("localhost")
    rules = post_only_rules(app)
    assert len(rules) > 20
    for rule in rules:
        if rule.rule.startswith("/api/"):
            continue  # the API answers its own problem documents, never a redirect
        path = filled(rule)
        try:
            adapter.match(path, method="GET")
            continue  # another rule answers a GET here: the address is a page too
        except MethodNotAllowed:
            pass
        response = client.get(path, headers={"Accept": "text/html"})
        assert response.status_code == 302, (path, response.status_code)
        with contextlib.suppress(RequestRedirect):  # a page under its trailing slash
            assert adapter.match(response.headers["Location"], method="GET"), path


def test_a_reopened_refund_or_link_address_goes_to_its_page(app, auth, client):
    merchant = make_merchant(app, "Lotus Traders")
    auth.login("ops")
    assert client.get("/payments/7/refund").headers["Location"] == "/payments/7"
    answer = client.get(f"/merchants/{merchant}/verification/links")
    assert answer.headers["Location"] == f"/merchants/{merchant}/verification"
    shown = BeautifulSoup(client.get(answer.headers["Location"]).data, "html.parser")
    assert REOPENED in [f.get_text(strip=True) for f in shown.select(".flash--warning")]
    assert "Method Not Allowed" not in shown.get_text()


def test_a_script_still_reads_405(app, auth, client):
    auth.login("ops")
    response = client.get("/payments/7/refund", headers={"Accept": "application/json"})
    assert response.status_code == 405 and response.json["error"] == "method_not_allowed"

