"""How ops reach the payments pages: the merchant page and the sandbox key command."""

from __future__ import annotations

from bs4 import BeautifulSoup

from tests.payments.support import add_merchant


def test_an_approved_merchant_links_to_its_payments(app, client, auth):
    auth.login(role="ops")
    merchant_id = add_merchant(app, "APPROVED")
    page = BeautifulSoup(client.get(f"/merchants/{merchant_id}").data, "html.parser")
    links = {a["href"] for a in page.select("section a")}
    assert f"/merchants/{merchant_id}/payments" in links
    assert f"/merchants/{merchant_id}/payments/credentials" in links


def test_a_merchant_under_review_says_payments_wait(app, client, auth):
    auth.login(role="ops")
    merchant_id = add_merchant(app, "PENDING_REVIEW")
    text = BeautifulSoup(client.get(f"/merchants/{merchant_id}").data, "html.parser").get_text()
    assert "open once the gateway has approved" in text


def test_register_sandbox_keys_with_nothing_stored(runner):
    result = runner.invoke(args=["payments", "register-sandbox-keys"])
    assert result.exit_code == 0
    assert "Registered 0 of 0 payment keys" in result.output
