"""A gateway that no longer knows a merchant (a sandbox whose records were wiped while the
portal kept its own) is worded as what it is on every page that asks it: the status, the
verification page, a step's send and a document's upload. Never "get_status: no such record |
HTTP 404 | reasonCode=NOT_FOUND | gid=..."."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from portal.domain.onboarding import scenarios
from tests.support.browser import Browser
from tests.support.rows import stored
from tests.verification.support import onboard
from tests.wizard.support import typed, upload

GONE = "The gateway no longer knows this merchant"
RAW = re.compile(r"no such record|HTTP 404|reasonCode|gid=|get_status|upload_document")


@pytest.fixture
def forgotten(app, auth, sandbox) -> int:
    """A merchant sent through step 7, then the sandbox's records wiped; the merchant's id."""
    auth.login("ops")
    merchant_id = onboard(app)
    sandbox.state.reset()
    return merchant_id


def text_of(response) -> str:
    return BeautifulSoup(response.data, "html.parser").get_text(" ", strip=True)


def test_the_status_page_says_the_gateway_forgot(client, forgotten, app):
    text = text_of(client.get(f"/merchants/{forgotten}/status"))
    assert GONE in text
    assert stored(app, forgotten).onboarding_id in text
    assert RAW.findall(text) == []


def test_the_verification_page_says_it_too(client, forgotten):
    text = text_of(client.get(f"/merchants/{forgotten}/verification/session"))
    assert GONE in text
    assert RAW.findall(text) == []


def test_a_step_send_and_an_upload_say_it_beside_what_was_typed(client, forgotten, app):
    browser = Browser(client)
    page = browser.get(f"/merchants/{forgotten}/steps/signatory")
    sent = browser.submit(page, typed(scenarios.HAPPY, "signatory"))
    assert GONE in sent.text()
    assert RAW.findall(sent.text()) == []
    page = browser.get(f"/merchants/{forgotten}/steps/documents")
    slot = page.soup.select_one("form.upload")["data-slot"]
    answer = upload(browser, page, slot, scenarios.sample_pdf(slot), "doc.pdf")
    assert GONE in answer.text()
    assert RAW.findall(answer.text()) == []
