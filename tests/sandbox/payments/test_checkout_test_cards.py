"""The sandbox's checkout lists its test cards, so nobody needs a file outside the project to
find one; the list is the issuer's own table, and each card does what the list says."""

from __future__ import annotations

from pathlib import Path

from portal.gateway.payments.words import PaymentStatus
from portal.sandbox.payments.checkout import TEST_CARDS
from tests.sandbox.payments.support import initiate_body, open_page

#: Where the docs list the sandbox's test values.
SANDBOX_PAGE = Path(__file__).resolve().parents[3] / "docs" / "developer" / "sandbox.md"


def test_the_checkout_page_lists_every_test_card_and_what_it_does(client, http):
    page = open_page(http, client.initiate(initiate_body()).data.redirectUrl)
    section = page.select_one("section.test-cards")
    assert section.h2.get_text() == "Test cards"
    listed = {row["data-card"]: row.select("td")[1].get_text()
              for row in section.select("tr[data-card]")}
    assert set(listed) == set(TEST_CARDS)
    for number, shown in listed.items():
        approves = TEST_CARDS[number][0] == PaymentStatus.AUTHORIZED
        assert shown.startswith("Approved" if approves else "Declined"), (number, shown)
    assert "expiry date gone by" in section.get_text()


def test_the_sandbox_page_lists_the_test_values_itself():
    text = SANDBOX_PAGE.read_text()
    assert "../shared/spec/CONTRACT.md" not in text
    assert "`4111 1111 1111 1111`" in text and "`4000 0000 0000 9995`" in text
