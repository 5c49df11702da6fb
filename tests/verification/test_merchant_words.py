"""The page a sub-merchant opens from the emailed link speaks the merchant's language: headed
with the partner's name (PARTNER_NAME), no gateway, confirmation or compliance jargon, and the
outcome in words a merchant reads."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from portal.core.config import Settings
from portal.features.verification.words import for_merchant
from tests.verification.support import merchant_link, onboard

PARTNER = "Acme Payments"
#: What ops say and a merchant should not have to read.
JARGON = re.compile(r"gateway|compliance|confirmed with|partner_|onboarding", re.IGNORECASE)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The suite's settings with the partner's name set."""
    return settings.with_changes(partner_name=PARTNER)


def visible(soup: BeautifulSoup) -> str:
    """What a person reads on the page (scripts, styles and the frame's own page aside)."""
    for hidden in soup(["script", "style", "iframe"]):
        hidden.decompose()
    return soup.get_text(" ", strip=True)


def test_the_merchants_page_is_headed_with_the_partner_and_speaks_plainly(app, client):
    merchant_id = onboard(app)
    response = client.get(merchant_link(app, merchant_id))
    assert response.status_code == 200
    soup = BeautifulSoup(response.data, "html.parser")
    assert soup.select_one(".partner-header__name").get_text() == PARTNER
    assert PARTNER in soup.title.get_text()
    section = soup.select_one("#verification")
    sentences = [value for key, value in section.attrs.items() if key.startswith("data-text-")]
    assert len(sentences) == 5
    text = visible(soup)
    assert f"{PARTNER} is setting up card payments for your business" in text
    assert JARGON.findall(" ".join([text, *sentences])) == []


def test_the_outcome_reads_in_the_merchants_words(app, client):
    merchant_id = onboard(app)
    path = merchant_link(app, merchant_id)
    client.get(path)
    answer = client.post(path.replace("?token=", "/confirm?token=")).get_json()
    assert answer["confirmed"] is True
    assert answer["message"] == "Some steps are still open."
    assert JARGON.findall(answer["message"] + answer["next"]) == []


@pytest.mark.parametrize("status", ["PENDING_VERIFICATION", "PENDING_REVIEW", "RFI", "APPROVED",
                                    "REJECTED", "SOMETHING_NEW"])
def test_every_outcome_names_the_partner_not_the_gateway(status):
    message, next_step = for_merchant(PARTNER).outcome(status)
    assert message
    assert JARGON.findall(message + next_step) == []
    if status != "PENDING_VERIFICATION":
        assert PARTNER in next_step


def test_a_refused_link_says_whom_to_ask(app, client):
    merchant_id = onboard(app)
    response = client.get(f"/verify/{merchant_id}?token=forged")
    soup = BeautifulSoup(response.data, "html.parser")
    assert f"Ask {PARTNER} for a new link." in visible(soup)
