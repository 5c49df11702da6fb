"""KYC data at rest: PANs, the bank account and the signatory's contact are stored encrypted
in every table (drafts, queued sends, merchants, documents); search by full PAN still works."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from sqlalchemy import make_url

from portal.domain.onboarding import scenarios
from tests.support.browser import Browser
from tests.wizard.support import merchant_id_from, point_gateway_at, typed, upload


def raw_cells(database_url: str) -> list[str]:
    """Every value of every row of every table, as text, read with plain SQL."""
    path = make_url(database_url).database
    with closing(sqlite3.connect(str(path))) as conn:  # a connection's with only commits
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [str(value) for table in tables
                for row in conn.execute(f'SELECT * FROM "{table}"')  # noqa: S608
                for value in row if value is not None]


def test_pan_account_and_contact_never_appear_in_clear_and_pan_search_works(
        browser: Browser, app, settings, closed_port):
    create = typed(scenarios.HAPPY, "create")
    bank = typed(scenarios.HAPPY, "bank")
    signatory = typed(scenarios.HAPPY, "signatory")
    owners = typed(scenarios.HAPPY, "owners")
    page = browser.submit(browser.get("/merchants/new"), create)
    merchant_id = merchant_id_from(page)
    for step, data in (("business", typed(scenarios.HAPPY, "business")), ("owners", owners),
                       ("bank", bank)):
        browser.submit(browser.get(f"/merchants/{merchant_id}/steps/{step}"), data)
    documents = browser.get(f"/merchants/{merchant_id}/steps/documents")
    slot = documents.soup.select_one("form.upload")["data-slot"]
    upload(browser, documents, slot, scenarios.sample_pdf(slot), "aadhaar.pdf")
    point_gateway_at(app, closed_port)  # the signatory's send is queued in the outbox
    page = browser.submit(browser.get(f"/merchants/{merchant_id}/steps/signatory"), signatory)
    assert "queued" in page.text()

    secrets = [create["panNumber"], bank["bankAccountNumber"], signatory["contact-email"],
               signatory["contact-phone"], signatory["authSignatoryPan"], owners["owners-1-pan"]]
    cells = raw_cells(settings.database_url)
    assert len(cells) > 50
    leaked = [secret for secret in secrets if any(secret in cell for cell in cells)]
    assert leaked == []

    found = browser.get(f"/merchants?q={create['panNumber'].lower()}")
    assert [a["href"] for a in found.soup.select("table.merchants tbody tr a")] == [
        f"/merchants/{merchant_id}"]
    assert browser.get(f"/merchants?q={create['panNumber'][:-1]}").soup.select(
        "table.merchants tbody tr") == []
    # what was typed reads back in the form, decrypted
    bank_page = browser.get(f"/merchants/{merchant_id}/steps/bank")
    assert bank_page.form().find(attrs={"name": "bankAccountNumber"})["value"] == \
        bank["bankAccountNumber"]
