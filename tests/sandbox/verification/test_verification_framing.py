"""The verification page in the partner's iframe: strict headers, messages to one origin only."""

from __future__ import annotations

import pytest
import requests
from bs4 import Tag

from portal.gateway.onboarding.events import origin_of
from tests.sandbox.verification_pages import PARTNER_ORIGIN, open_link, ready_link


def test_link_opens_the_first_step_with_strict_headers(sandbox_server, partner, onboarding_id):
    page = open_link(ready_link(partner, onboarding_id))
    assert page.response.status_code == 200
    assert page.step == "TNC"
    assert (page.messages, page.target_origin) == ([], PARTNER_ORIGIN)
    csp = page.csp()
    assert csp["frame-ancestors"] == PARTNER_ORIGIN
    assert csp["script-src"] == "'self'"
    assert csp["default-src"] == "'none'"
    assert "unsafe-inline" not in page.response.headers["Content-Security-Policy"]
    assert page.response.headers["Cache-Control"] == "no-store"
    assert page.response.headers["Referrer-Policy"] == "no-referrer"
    scripts = page.soup.find_all("script")
    assert [s["src"] for s in scripts] == ["/verification/static/verification.js"]
    assert all(not s.get_text(strip=True) for s in scripts)
    style = page.soup.find("style")
    assert isinstance(style, Tag)
    assert csp["style-src"] == f"'nonce-{style['nonce']}'"


def test_target_origin_is_the_callback_origin_with_its_port(sandbox_server, partner,
                                                           onboarding_id):
    page = open_link(ready_link(partner, onboarding_id, "http://127.0.0.1:5000/onboarding/done"))
    assert page.target_origin == "http://127.0.0.1:5000"
    assert page.csp()["frame-ancestors"] == "http://127.0.0.1:5000"


@pytest.mark.parametrize(("url", "origin"), [
    ("https://Partner.Example.com/done?x=1", "https://partner.example.com"),
    ("https://partner.example.com:443/done", "https://partner.example.com"),
    ("https://user:pass@partner.example.com:8443/done", "https://partner.example.com:8443"),
    ("http://localhost:80/done", "http://localhost"),
    ("http://[::1]:8080/done", "http://[::1]:8080"),
])
def test_origin_of_a_callback_url(url, origin):
    assert origin_of(url) == origin


def test_script_posts_to_the_exact_origin_only_when_framed(sandbox_server):
    response = requests.get(sandbox_server.url + "/verification/static/verification.js",
                            timeout=5)
    assert response.status_code == 200
    assert "javascript" in response.headers["Content-Type"]
    script = response.text
    assert "window.parent.postMessage(message, targetOrigin)" in script
    assert "window.parent !== window && targetOrigin" in script  # only when framed
    assert '"*"' not in script
    assert "'*'" not in script
