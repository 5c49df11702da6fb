"""A merchant whose details are with the gateway, which waits for its documents (as a bulk row
that ended "Waiting for documents" leaves it), reads "Waiting for documents" on the merchants
list and its summary, not "Details being sent" (issue 36.10)."""

from __future__ import annotations

from bs4 import BeautifulSoup

from tests.support.team import make_merchant


def status_on(client, path: str, selector: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser").select_one(selector).get_text(strip=True)


def test_a_merchant_waiting_for_documents_says_so(app, auth, client):
    auth.login("ops")
    waiting = make_merchant(app, "Papers Ltd", checklist={"documents": "PENDING"},
                            documents_outstanding=["LLP_AGREEMENT"])
    assert status_on(client, "/merchants", "table.merchants tbody tr .status") == \
        "Waiting for documents"
    assert status_on(client, f"/merchants/{waiting}", "dd.status") == "Waiting for documents"


def test_a_merchant_still_sending_its_details_says_that(app, auth, client):
    auth.login("ops")
    sending = make_merchant(app, "Halfway Ltd")
    assert status_on(client, "/merchants", "table.merchants tbody tr .status") == \
        "Details being sent"
    assert status_on(client, f"/merchants/{sending}", "dd.status") == "Details being sent"
