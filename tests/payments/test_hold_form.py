"""The new-hold form: the shared shapes' rules beside each field, order rows, a gateway that is
down or loses its answer, and a form sent twice."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models.payment import Payment
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.payments.support import backend, hold_values, payment_row, post_hold, submit

ITEM = {"riskData-orderData-0-itemName": "Masala chai", "riskData-orderData-0-itemQuantity": "2",
        "riskData-orderData-0-itemPrice": "120.00"}


def hold_page(browser, merchant_id):
    return browser.get(f"/merchants/{merchant_id}/payments/new")


def send(browser, merchant_id, **changes):
    return submit(browser, hold_page(browser, merchant_id), "form.hold-form",
                  hold_values(**changes), action="send")


def payments(app) -> list[Payment]:
    with app.app_context():
        rows = list(db.session.scalars(select(Payment).order_by(Payment.id)))
        for row in rows:
            db.session.expunge(row)
        return rows


def test_the_form_defaults_to_inr_and_generates_identifiers(browser, merchant_id, credentials):
    form = hold_page(browser, merchant_id).form("form.hold-form")
    currency = form.find("select", attrs={"name": "paymentData-txnCurrency"})
    assert currency.find("option", selected=True)["value"] == "INR"
    assert len(currency.find_all("option")) > 150  # every ISO 4217 currency
    txn_id = form.find("input", attrs={"name": "merchantTxnId"})["value"]
    unique_id = form.find("input", attrs={"name": "merchantUniqueId"})["value"]
    assert txn_id.isalnum() and 4 <= len(txn_id) <= 50
    assert unique_id.isalnum() and 15 <= len(unique_id) <= 40


@pytest.mark.parametrize(("field", "value", "message"), [
    ("paymentData-totalAmount", None, "This field is required"),
    ("paymentData-totalAmount", "12.34567", "at most 4 decimal places"),
    ("paymentData-totalAmount", "0", "greater than 0"),
    ("paymentData-txnCurrency", "QQQ", "ISO 4217"),
    ("paymentData-billingData-emailId", "asha-at-example", "email"),
    ("paymentData-billingData-addressCountry", "ZZZ", "ISO 3166-1 alpha-3"),
    ("riskData-orderData-0-itemQuantity", "2.5", "whole number"),
    ("riskData-orderData-0-itemPrice", "one hundred", "decimal number"),
], ids=["amount-missing", "amount-5dp", "amount-zero", "currency", "email", "country",
        "quantity", "price"])
def test_each_rule_is_shown_beside_its_field(app, browser, merchant_id, credentials, field, value,
                                             message):
    page = send(browser, merchant_id, **{**ITEM, field: value})
    assert page.response.status_code == 200
    shown_on = field if value is not None else "paymentData-totalAmount"
    assert any(message.lower() in error.lower() for error in page.errors_for(shown_on)), \
        page.errors_for(shown_on)
    assert payments(app) == []  # nothing stored, nothing sent


def test_order_rows_are_added_and_removed_without_losing_typing(browser, merchant_id,
                                                                credentials):
    page = hold_page(browser, merchant_id)
    page = submit(browser, page, "form.hold-form", hold_values(), action="add_item")
    page = submit(browser, page, "form.hold-form",
                  {"riskData-orderData-0-itemName": "Chai"}, action="add_item")
    assert len(page.soup.select("fieldset.order-item")) == 2
    page = submit(browser, page, "form.hold-form", {"riskData-orderData-1-itemName": "Samosa"},
                  action="remove_item:0")
    rows = page.soup.select("fieldset.order-item")
    assert len(rows) == 1
    assert rows[0].find("input", attrs={"name": "riskData-orderData-0-itemName"})["value"] == \
        "Samosa"
    assert page.form("form.hold-form").find(
        "input", attrs={"name": "paymentData-totalAmount"})["value"] == "1500.00"


def test_order_items_reach_the_gateway(app, browser, sandbox, merchant_id, credentials):
    response = post_hold(browser, merchant_id, **ITEM)
    assert response.status_code == 302
    gid = payment_row(app, 1).gid
    [item] = backend(sandbox).get(gid).request.riskData.orderData
    assert (item.itemName, item.itemQuantity, item.itemPrice) == ("Masala chai", 2, "120.00")


def test_without_credentials_the_form_is_not_offered(browser, merchant_id):
    page = hold_page(browser, merchant_id)
    assert page.soup.select_one("form.hold-form") is None
    assert "no payment credentials yet" in page.text()


def test_an_unreachable_gateway_keeps_the_form_and_a_retry_reuses_the_ids(app, browser,
                                                                          merchant_id,
                                                                          credentials):
    settings = app.extensions[SETTINGS_EXTENSION]
    app.extensions[SETTINGS_EXTENSION] = settings.with_changes(payments_url="http://127.0.0.1:9")
    page = send(browser, merchant_id)
    assert "could not be reached, so the hold was not sent" in page.text()
    form = page.form("form.hold-form")
    assert form.find("input", attrs={"name": "paymentData-billingData-firstName"})["value"] == \
        "Asha"
    [stored] = payments(app)
    assert (stored.status, stored.action_state, stored.gid) == ("PENDING", "idle", None)
    app.extensions[SETTINGS_EXTENSION] = settings
    response = submit(browser, page, "form.hold-form", action="send", follow=False)
    assert response.status_code == 302
    [sent] = payments(app)
    assert sent.merchant_txn_id == stored.merchant_txn_id and sent.status == "INPROGRESS"


def test_a_lost_answer_shows_the_ambiguity_and_resends_the_same_ids(
        app, browser, sandbox, merchant_id, credentials, answer_dialect):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="initiate", times=1))
    page = send(browser, merchant_id)
    assert page.soup.select_one(".outcome-unknown") is not None
    assert "cannot tell whether the hold was created" in page.text()
    [stored] = payments(app)
    assert stored.action_state == "unknown" and stored.merchant_txn_id in page.text()
    button = page.soup.select_one(".hold-form .actions button")
    assert button.get_text(strip=True) == "Send again with the same merchantTxnId"
    # changed data is refused: the first attempt may stand with what it sent
    changed = submit(browser, page, "form.hold-form", {"paymentData-totalAmount": "99"},
                     action="send")
    assert "send it again unchanged" in changed.text()
    response = submit(browser, page, "form.hold-form", action="send", follow=False)
    if answer_dialect == "contract":  # the gateway answers the same ids with the original
        assert response.status_code == 302
    else:  # the docs' gateway calls them a duplicate: a status read finds the first attempt's
        assert "one hold, not two" in response.get_data(as_text=True)
    [sent] = payments(app)
    assert sent.merchant_txn_id == stored.merchant_txn_id and sent.action_state == "idle"
    assert sent.gid is not None and sent.status == "INPROGRESS"
    received = {p.request.merchantTxnId for p in backend(sandbox)._payments.values()}
    assert received == {stored.merchant_txn_id}


def test_the_same_form_sent_twice_makes_one_hold(app, browser, sandbox, merchant_id, credentials):
    page = hold_page(browser, merchant_id)
    first = submit(browser, page, "form.hold-form", hold_values(), action="send", follow=False)
    second = submit(browser, page, "form.hold-form", hold_values(), action="send", follow=False)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert len(payments(app)) == 1
    assert len(backend(sandbox)._payments) == 1


def test_a_stored_hold_can_be_resumed_from_its_page(app, browser, merchant_id, credentials):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        payments_url="http://127.0.0.1:9")
    send(browser, merchant_id, **{"paymentData-totalAmount": "42.50"})
    [stored] = payments(app)
    detail = browser.get(f"/payments/{stored.id}")
    link = detail.soup.find("a", string="Open the hold form to send it again")
    form = browser.get(link["href"]).form("form.hold-form")
    assert form.find("input", attrs={"name": "merchantTxnId"})["value"] == stored.merchant_txn_id
    assert form.find("input", attrs={"name": "paymentData-totalAmount"})["value"] == "42.50"
