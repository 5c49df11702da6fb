"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import io
import socket

import pytest
from bs4 import BeautifulSoup

from portal.core.config import SETTINGS_EXTENSION
from portal.domain.onboarding import scenarios
from tests.support.browser import Browser, Page, flatten, form_values
from tests.support.rows import stored


@pytest.fixture
def browser(auth, client) -> Browser:
    """A browser signed in as ops."""
    auth.login("ops")
    return Browser(client)


def typed(scenario: str, step: str, pan: str = "", **changes: str | None) -> dict:
    """A scenario's data for a step as form fields (the GSTIN that of the merchant's ``pan``,
    blank without it), with some fields changed."""
    return {**flatten(scenarios.form_data(scenario, step, pan)), **changes}


def send_through_pages(browser: Browser, steps: tuple[str, ...] = (),
                       scenario: str = scenarios.HAPPY) -> int:
    """Create a merchant at the sandbox through step 1's page, then send ``steps`` through
    theirs, with a scenario's data; returns the merchant's id."""
    create = typed(scenario, "create")
    page = browser.submit(browser.get("/merchants/new"), create)
    assert page.response.status_code == 200
    merchant_id = merchant_id_from(page)
    for step in steps:
        browser.submit(browser.get(f"/merchants/{merchant_id}/steps/{step}"),
                       typed(scenario, step, create["panNumber"]))
    return merchant_id


@pytest.fixture
def new_merchant(browser: Browser) -> int:
    """A merchant created at the sandbox through step 1's page; returns its id."""
    return send_through_pages(browser)


def merchant_id_from(page: Page) -> int:
    """The merchant id in the current page's path (/merchants/<id>/...)."""
    return int(page.response.request.path.split("/")[2])


def point_gateway_at(app, url: str) -> None:
    """Make the portal talk to another gateway address from now on."""
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        onboarding_url=url)


@pytest.fixture
def closed_port() -> str:
    """The URL of a loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def upload(browser: Browser, page: Page, slot: str, content: bytes, name: str) -> Page:
    """Post the documents page's upload form of ``slot`` with a file."""
    values = form_values(page.form(f"form.upload[data-slot='{slot}']"))
    values["file"] = (io.BytesIO(content), name)
    response = browser.client.post(page.response.request.path, data=values,
                                   content_type="multipart/form-data", follow_redirects=True)
    return Page(response, BeautifulSoup(response.data, "html.parser"))


def onboard(browser: Browser, app, scenario: str = scenarios.HAPPY) -> int:
    """Steps 1-7 through the pages with a scenario's data; returns the merchant id."""
    merchant_id = send_through_pages(browser, ("business", "owners", "bank", "signatory"),
                                     scenario)
    page = browser.get(f"/merchants/{merchant_id}/steps/documents")
    for slot in stored(app, merchant_id).documents_outstanding:
        page = upload(browser, page, slot, scenarios.sample_pdf(slot), "doc.pdf")
    browser.submit(browser.get(f"/merchants/{merchant_id}/steps/products"),
                   typed(scenario, "products"))
    return merchant_id


FORM_STEPS = ("create", "business", "owners", "bank", "signatory", "products")


def sends(sandbox) -> list[str]:
    """The method and path of every request the sandbox received."""
    return [f"{r.method} {r.raw_path}" for r in
            sandbox.state.onboarding.received_requests()]


def step_url(merchant_id: int, step: str) -> str:
    if step == "verification":
        return f"/merchants/{merchant_id}/verification"
    return f"/merchants/{merchant_id}/steps/{step}"
