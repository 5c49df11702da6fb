"""What the hand-over tests share: a code made on the merchant's page, and its URL read from
the page (the QR code's own text)."""

from __future__ import annotations

from urllib.parse import urlsplit

from bs4 import BeautifulSoup


def make_code(client, merchant_path: str) -> tuple[BeautifulSoup, str]:
    """Press "Continue on my phone" on the merchant's page at ``merchant_path``: the phone
    page it leads to, and the path of the hand-over URL its QR code holds."""
    page = BeautifulSoup(client.get(merchant_path).data, "html.parser")
    offer = page.select_one(".phone-offer form")
    assert offer is not None, "no 'Continue on my phone' on the merchant's page"
    answer = client.post(offer["action"])
    assert answer.status_code == 303, answer.status_code
    phone_page = BeautifulSoup(client.get(answer.headers["Location"]).data, "html.parser")
    return phone_page, handover_path(phone_page)


def handover_path(phone_page: BeautifulSoup) -> str:
    """The path and query of the hand-over URL the phone page's QR code holds."""
    url = urlsplit(phone_page.select_one("[data-handover-url]")["data-handover-url"])
    return f"{url.path}?{url.query}"


def status_of(client, phone_page: BeautifulSoup) -> dict:
    """What the computer's page reads of the hand-over (its JSON status)."""
    answer = client.get(phone_page.select_one("#phone-handover")["data-status-url"])
    assert answer.status_code == 200
    return answer.json
