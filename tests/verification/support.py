"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import requests
from bs4 import BeautifulSoup

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import SYSTEM, Actor
from portal.domain.documents import service as documents
from portal.domain.onboarding import merchant_links as links
from portal.domain.onboarding import progress, scenarios
from portal.domain.onboarding.create import start_merchant
from portal.domain.onboarding.service import send_step
from portal.domain.onboarding.steps import BY_KEY
from portal.sandbox.onboarding.backend import OnboardingBackend
from tests.support.servers import serve

#: The sandbox page's buttons, in the order the merchant presses them.
PAGE_STEPS = [("tnc", {"accept": "yes"}), ("digilocker", {"consent": "yes"}), ("vkyc-pass", {})]


def onboard(app, scenario: str = scenarios.HAPPY, until: str = "products") -> int:
    """Send steps 1 to ``until`` (documents included) through the services, but those the
    gateway's checklist says are not needed; the merchant id."""
    with app.app_context():
        client = onboarding_client(current_settings())
        data = scenarios.form_data(scenario, "create")
        merchant, errors = start_merchant(data, actor=SYSTEM)
        assert merchant is not None, errors
        assert send_step(client, merchant, BY_KEY["create"], data, actor=SYSTEM).ok
        for key in ("business", "owners", "bank", "signatory", "documents", "products"):
            if progress.not_needed(merchant, BY_KEY[key]):
                continue  # the gateway's checklist: an individual's owners
            if key == "documents":
                assert all(r.ok for r in documents.upload_samples(
                    client, current_settings(), merchant, actor=SYSTEM))
            else:
                result = send_step(client, merchant, BY_KEY[key],
                                           scenarios.form_data(scenario, key), actor=SYSTEM)
                assert result.ok, (key, result.message, result.errors)
            if key == until:
                break
        return merchant.id


def merchant_link(app, merchant_id: int) -> str:
    """The path of a fresh merchant link, as the emailed one opens."""
    with app.app_context():
        merchant = db.session.get(Merchant, merchant_id)
        _link, token = links.issue(current_settings().secret_key, merchant,
                                   Actor("ops@example.com"))
    return f"/verify/{merchant_id}?token={token}"


def page_soup(client, path: str) -> BeautifulSoup:
    """The page at ``path``, which must answer 200, parsed."""
    response = client.get(path)
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def backend_of(sandbox) -> OnboardingBackend:
    """The sandbox's onboarding backend."""
    return sandbox.state.onboarding


def frame_src(html: bytes) -> str:
    """The link the page's verification iframe loads: at once (ops' page), or once the camera
    check passes (the merchant's: ``data-src``)."""
    frame = BeautifulSoup(html, "html.parser").select_one("iframe#verification-frame")
    assert frame is not None, "no verification iframe on the page"
    return str(frame.get("src") or frame["data-src"])


def token_of(link: str) -> str:
    """The gateway token in a redirectLink."""
    found = re.search(r"[?&]token=([^&]+)", link)
    assert found is not None
    return requests.utils.unquote(found.group(1))


def complete_on_sandbox_page(link: str) -> None:
    """Do what the merchant does on the sandbox's hosted page: each step's button in turn."""
    with requests.Session() as http:
        page = http.get(link, timeout=5)
        assert page.status_code == 200, page.text
        for action, fields in PAGE_STEPS:
            session = BeautifulSoup(page.text, "html.parser").find("input", {"name": "session"})
            assert session is not None, page.text
            page = http.post(link.split("?", 1)[0],
                             data={"session": session["value"], "action": action, **fields},
                             timeout=5)
            assert page.status_code == 200, page.text
        assert "Verification complete" in page.text


@dataclass
class PortalServer:
    """The portal served on a loopback port (the sandbox delivers webhooks to it)."""

    url: str


@pytest.fixture
def portal_server(app, sandbox) -> Iterator[PortalServer]:
    """Serve the portal and point the sandbox's webhooks at it."""
    with serve(app) as url:
        sandbox.state.config.webhookUrl = f"{url}/webhooks/onboarding"
        yield PortalServer(url)


def reviewed(app, client, sandbox, scenario: str) -> int:
    """A merchant of ``scenario`` through verification and the gateway's review; its id (the
    review's webhook reaches the portal when ``portal_server`` serves it)."""
    merchant_id = onboard(app, scenario)
    complete_on_sandbox_page(frame_src(
        client.get(f"/merchants/{merchant_id}/verification/session").data))
    client.post(f"/merchants/{merchant_id}/verification/confirm",
                headers={"Accept": "application/json"})
    backend_of(sandbox).tick()  # the review decides; its webhook reaches the portal
    return merchant_id
