"""The audit trail's filters take words: an action and an outcome chosen from lists of what
they mean, a merchant by name; and its sentences read as a person would say them."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from portal.core import clock
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from tests.admin.support import _add_merchants


def _audit(app, count: int = 1, **fields) -> None:
    with app.app_context():
        for _ in range(count):
            db.session.add(AuditEvent(**{
                "at": clock.utcnow(), "actor_label": "ops@example.com",
                "action": "step.send.bank", "outcome": "ok", "merchant_id": None, "gid": "",
                "detail": {}, **fields}))
        db.session.commit()


def _soup(client, query: str = "") -> BeautifulSoup:
    response = client.get(f"/admin/audit?{query}")
    assert response.status_code == 200
    return BeautifulSoup(response.data, "html.parser")


def _listed(client, query: str) -> list[str]:
    return [tr["data-action"] for tr in _soup(client, query).select("tr[data-event]")]


@pytest.fixture
def admin(auth, client):
    auth.login("admin")
    return client


def test_the_action_is_chosen_from_a_list_of_what_happened(app, admin):
    options = {o.get_text(): o["value"] for o in _soup(admin).select("#action option")}
    assert options["Anything"] == ""
    assert options["Sent bank details"] == "step.send.bank"
    assert options["Deactivated a user"] == "user.deactivate"
    assert options["Created a merchant at the gateway"] == "step.send.create"
    assert not [label for label in options if "{" in label]
    assert not any(label.startswith(("step.", "user.")) for label in options)
    _audit(app, action="step.send.bank")
    _audit(app, action="step.send.owners")
    _audit(app, action="bulk.import.start")
    _audit(app, action="bulk.import")
    assert _listed(admin, "action=step.send.bank") == ["step.send.bank"]
    assert _listed(admin, "action=bulk.import") == ["bulk.import"], "a chosen action is exact"
    assert sorted(_listed(admin, "action=step.send")) == ["step.send.bank", "step.send.owners"]
    page = _soup(admin, "action=step.send.bank")
    assert page.select_one("#action option[selected]").get_text() == "Sent bank details"


def test_the_outcome_is_chosen_in_words(app, admin):
    options = {o.get_text(): o["value"] for o in _soup(admin).select("#outcome option")}
    assert options["Any outcome"] == "" and options["Gateway unavailable"] == "unavailable"
    _audit(app, outcome="unavailable")
    _audit(app)
    assert _listed(admin, "outcome=unavailable") == ["step.send.bank"]


def test_a_merchant_is_found_by_part_of_its_name(app, admin):
    [chai] = _add_merchants(app, 1, name="Chai Point Private Limited")
    [other] = _add_merchants(app, 1, name="Lotus Traders")
    _audit(app, merchant_id=chai)
    _audit(app, 2, merchant_id=other)
    page = _soup(admin, "merchant=chai+point")
    assert [td.get_text() for td in page.select("td[data-label='Merchant']")] == [
        "Chai Point Private Limited"]
    assert page.select_one("#merchant")["value"] == "chai point"
    assert len(_listed(admin, f"merchant={other}")) == 2  # its number, as older links carry


def test_the_merchant_opening_their_link_reads_as_a_sentence(app, admin):
    [merchant] = _add_merchants(app, 1, name="Chai Point")
    _audit(app, actor_label="merchant link", action="merchant_link.open", merchant_id=merchant)
    sentence = _soup(admin, "action=merchant_link.open").select_one("td.sentence").get_text()
    assert sentence == "The merchant opened their verification link for Chai Point."


def test_an_events_details_name_what_happened_in_words_before_its_code(app, admin):
    _audit(app, action="step.send.bank", detail={"step": "bank", "reason": "x" * 300})
    details = _soup(admin).select_one("tr[data-event] .audit-detail")
    assert details.select_one(".action-words").get_text() == "Sent bank details"
    assert details.select_one("code.action").get_text() == "step.send.bank"

