"""Every export holds what the pages show: no full PAN or account number in any CSV or ZIP the
portal hands out (an owner's Aadhaar's document key embeds the owner's PAN). The exports are
found, not listed: every GET route answering an attachment, and every route whose address says
it exports, so a new export is checked the day it is added."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any

import pytest
from flask import Flask, url_for
from sqlalchemy import update

from portal.core.db import db
from portal.core.models.bulk import BulkImport
from portal.core.models.merchant import Merchant
from portal.domain.onboarding.scenarios import OWNERS, VERIFIED_BANK
from tests.support.routes import get_urls, seed_rows

#: Downloads that are the merchant's own file as uploaded (the documents page names it the same).
NOT_EXPORTS = {"documents.download": "a stored document itself, under the name it was uploaded"}
#: An address that says it exports something.
EXPORT_ADDRESS = re.compile(r"export|\.csv$|\.zip$")
#: The exports the portal has today; a new one joins this set (and this test checks it).
EXPORTS = {"admin.checklist_csv", "bulk.errors", "bulk.needs_file", "bulk.template_file",
           "bulk.codes_file", "merchants.export", "payments.export"}
#: Exports of no one's data: the bulk template's example row is the sandbox's made-up merchant.
EXAMPLES = {"bulk.template_file"}
OWNER_KEY = f"{OWNERS[0][2]}_ASHA_RAO_AADHAR"


@pytest.fixture
def secrets(app: Flask, client, auth, settings) -> dict[str, Any]:
    """An admin signed in, one row of each kind; a merchant owing an owner's Aadhaar and a
    bulk import whose report quotes a PAN. The PANs and account numbers no export may hold."""
    auth.login("admin")
    ids = seed_rows(app, client, settings)
    with app.app_context():
        merchant = db.session.get(Merchant, ids["merchant_id"])
        assert merchant is not None
        pans = {merchant.pan, *(owner[2] for owner in OWNERS)}
        db.session.execute(update(Merchant).where(Merchant.id == merchant.id).values(
            documents_outstanding=[OWNER_KEY, "CANCELLED_CHEQUE"]))
        db.session.execute(update(BulkImport).where(BulkImport.id == ids["import_id"]).values(
            errors=[{"row": 2, "column": "owners.0.pan",
                     "message": f"{OWNERS[1][2]} is the PAN of another owner"}]))
        db.session.commit()
    return {"ids": ids, "secrets": pans | {VERIFIED_BANK[0]}}


def export_routes(app: Flask, ids: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """address -> (endpoint, method, URL) of every route whose address says it exports."""
    found = {}
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if EXPORT_ADDRESS.search(rule.rule) and rule.endpoint not in NOT_EXPORTS:
                method = "GET" if "GET" in (rule.methods or ()) else "POST"
                values = {name: ids[name] for name in rule.arguments}
                found[rule.rule] = (rule.endpoint, method, url_for(rule.endpoint, **values))
    return found


def readable(body: bytes) -> str:
    """An export's text: a ZIP's entry names and every entry but the stored documents."""
    if not body.startswith(b"PK"):
        return body.decode()
    bundle = zipfile.ZipFile(io.BytesIO(body))
    return "\n".join([*bundle.namelist(), *(bundle.read(name).decode()
                                            for name in bundle.namelist()
                                            if not name.startswith("documents/"))])


def test_no_export_holds_a_full_pan_or_account_number(app, client, secrets):
    ids = secrets["ids"]
    routes = export_routes(app, ids)
    for endpoint, url in get_urls(app, ids):
        if endpoint not in NOT_EXPORTS.keys() | {route[0] for route in routes.values()}:
            response = client.get(url)
            response.close()
            assert "attachment" not in response.headers.get("Content-Disposition", ""), (
                f"{url} is an export: give its address a name that says so")
    assert {route[0] for route in routes.values()} == EXPORTS, (
        "a new export: add it to EXPORTS, this test checks it")
    for endpoint, method, url in routes.values():
        response = client.open(url, method=method)
        body = response.get_data()
        response.close()
        assert response.status_code == 200, (url, response.status_code)
        assert "attachment" in response.headers["Content-Disposition"], url
        text = "" if endpoint in EXAMPLES else readable(body)
        for secret in secrets["secrets"]:
            assert secret.lower() not in text.lower(), (endpoint, secret)


def test_the_checklist_export_names_the_owners_document_with_its_pan_masked(app, client,
                                                                           secrets):
    text = client.get("/admin/checklist.csv").get_data(as_text=True)
    assert "******234K_ASHA_RAO_AADHAR CANCELLED_CHEQUE" in text
    assert "Aadhaar of Asha Rao (PAN ******234K)" in text  # the words column, as pages say it


def test_the_merchant_export_masks_the_drafts_and_document_names(app, client, secrets):
    merchant_id = secrets["ids"]["merchant_id"]
    response = client.post(f"/merchants/{merchant_id}/export")
    body = response.get_data()
    response.close()
    bundle = zipfile.ZipFile(io.BytesIO(body))
    names = bundle.namelist()
    assert any(name.startswith("documents/******234K_ASHA_RAO_AADHAR-v1-") for name in names)
    record = bundle.read("merchant.json").decode()
    assert "******7890" in record  # the bank account, as the bank step shows it
    assert "+91" in record  # a phone number stays whole, as the pages show it
