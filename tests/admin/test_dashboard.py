"""The admin dashboard: admins only, every merchant's progress, counts per status as a chart,
stale merchants on the portal clock, the filtered audit trail and a spreadsheet-safe export."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import event

from bench.seed import seed_merchants
from portal.core import clock
from portal.core.db import db
from portal.core.models.audit import AuditEvent
from portal.features.admin.dashboard import STALE_COUNT_CAP
from tests.admin.support import _add_merchants

PAGES = ["/admin/", "/admin/audit", "/admin/checklist.csv"]


def _soup(response, status: int = 200) -> BeautifulSoup:
    assert response.status_code == status
    return BeautifulSoup(response.data, "html.parser")


# ---------------------------------------------------------------- access


@pytest.mark.parametrize("path", PAGES)
def test_anonymous_users_are_sent_to_sign_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


@pytest.mark.parametrize("path", PAGES)
def test_ops_are_forbidden(client, auth, path):
    auth.login("ops")
    assert client.get(path).status_code == 403


@pytest.mark.parametrize("path", PAGES)
def test_admins_get_in(client, auth, path):
    auth.login("admin")
    assert client.get(path).status_code == 200


# ---------------------------------------------------------------- constant statement count


def _statements(app, client, path: str) -> int:
    count = 0

    def counted(*_args) -> None:
        nonlocal count
        count += 1

    engine = db.engine(app)
    event.listen(engine, "before_cursor_execute", counted)
    try:
        assert client.get(path).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    return count


@pytest.mark.parametrize("path", ["/admin/", "/admin/checklist.csv", "/admin/audit"])
def test_the_statement_count_does_not_grow_with_the_merchants(app, client, auth, path):
    auth.login("admin")
    _add_merchants(app, 5)
    few = _statements(app, client, path)
    _add_merchants(app, 25)
    many = _statements(app, client, path)
    assert few == many
    # 5, the navigation's count of approvals waiting, and (the dashboard) the dormant count
    # and the branding's name (whether merchants read the placeholder)
    assert few <= (8 if path == "/admin/" else 6)


# ---------------------------------------------------------------- the dashboard


def test_every_merchant_with_its_outstanding_documents_and_steps_not_done(app, client, auth):
    auth.login("admin")
    [merchant_id] = _add_merchants(app, 1, outstanding=("CANCELLED_CHEQUE", "UDYAM"))
    row = _soup(client.get("/admin/")).select_one(f".progress tr[data-merchant='{merchant_id}']")
    assert row.select_one(".outstanding").get_text() == (
        "Cancelled cheque, Udyam registration certificate")
    assert row.select_one(".incomplete").get_text() == (
        "Bank details, Authorised signatory, Documents, Products, Verification, Status")


def test_counts_per_status_are_drawn_as_bars(app, client, auth):
    auth.login("admin")
    _add_merchants(app, 3, status="IN_PROGRESS")
    _add_merchants(app, 1, status="APPROVED")
    soup = _soup(client.get("/admin/"))
    rows = {g["data-status"]: g for g in soup.select(".status-chart__row")}
    assert list(rows)[:4] == ["NOT_CREATED", "INITIATED", "IN_PROGRESS", "PENDING_VERIFICATION"]
    assert {s: int(g["data-count"]) for s, g in rows.items() if int(g["data-count"])} == {
        "IN_PROGRESS": 3, "APPROVED": 1}
    widths = {s: g.select_one("rect")["width"] for s, g in rows.items()}
    assert (widths["IN_PROGRESS"], widths["APPROVED"], widths["REJECTED"]) == (
        "100.0%", "33.3%", "0.0%")  # of the largest count
    assert rows["IN_PROGRESS"].select_one(".status-chart__label").get_text() == "Details being sent"
    assert rows["IN_PROGRESS"].select_one(".status-chart__count").get_text() == "3"
    assert soup.select("[style]") == []


def test_merchants_without_progress_for_n_days_are_flagged(app, client, auth, portal_clock,
                                                           settings):
    [old] = _add_merchants(app, 1, name="Sleepy Traders")
    [done] = _add_merchants(app, 1, status="APPROVED", name="Finished Traders")
    portal_clock.advance((settings.stale_after_days + 1) * 86400)
    [fresh] = _add_merchants(app, 1, name="Busy Traders")
    auth.login("admin")
    soup = _soup(client.get("/admin/"))
    assert [li["data-merchant"] for li in soup.select(".stale li")] == [str(old)]
    assert soup.select_one(f"tr[data-merchant='{old}']")["class"] == ["is-stale"]
    assert not soup.select_one(f"tr[data-merchant='{fresh}']").get("class")
    assert not soup.select_one(f"tr[data-merchant='{done}']").get("class")


def test_idle_merchants_are_counted_up_to_a_thousand(app, client, auth, portal_clock,
                                                      settings):
    seed_merchants(app, STALE_COUNT_CAP)  # seeded as active on 2026-01-01
    portal_clock.advance((settings.stale_after_days + 1) * 86400)
    auth.login("admin")
    count = _soup(client.get("/admin/")).select_one(".stale-count")
    assert count.get_text(strip=True) == "1000 merchants; the 20 idle longest:"
    seed_merchants(app, 1)
    count = _soup(client.get("/admin/")).select_one(".stale-count")
    assert count.get_text(strip=True) == "More than 1,000 merchants; the 20 idle longest:"


# ---------------------------------------------------------------- the export


def test_the_checklist_export_has_one_row_per_merchant_and_defuses_formulas(app, client, auth):
    auth.login("admin")
    names = {"=HYPERLINK(\"http://evil\")": "'=HYPERLINK(\"http://evil\")",
             "+1+1": "'+1+1", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)",
             # where ';', ',' or a tab separates cells, each may start a formula
             "Acme;=2*3;tail": "Acme;'=2*3;tail", "Acme, -1+1": "Acme, '-1+1",
             "Acme\t@SUM(A1)": "Acme\t'@SUM(A1)", "Plain Traders": "Plain Traders"}
    for name in names:
        _add_merchants(app, 1, name=name)
    response = client.get("/admin/checklist.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [r["name"] for r in rows] == list(names.values())
    assert rows[0]["businessDetails"] == "COMPLETE"
    assert rows[0]["bankDetails"] == "PENDING"
    assert rows[0]["documents_to_be_uploaded"] == "CANCELLED_CHEQUE"


# ---------------------------------------------------------------- the audit trail


def _audit(app, count: int, **fields) -> None:
    with app.app_context():
        for _ in range(count):
            values = {"at": clock.utcnow(), "actor_label": "ops@example.com",
                      "action": "step.send.bank", "outcome": "ok", "merchant_id": 7,
                      "gid": "", "detail": {}, **fields}
            db.session.add(AuditEvent(**values))
        db.session.commit()


def _listed(client, query: str, status: int = 200) -> list[int]:
    soup = _soup(client.get(f"/admin/audit?{query}"), status)
    return [int(tr["data-event"]) for tr in soup.select("tr[data-event]")]


def test_the_audit_trail_filters_by_actor_action_merchant_outcome_and_days(app, client, auth):
    auth.login("admin")  # the sign-in itself is audited too
    _audit(app, 2, actor_label="webhook", action="status.change", merchant_id=3)
    _audit(app, 1, outcome="refused")
    _audit(app, 1, action="step.send.owners", at=datetime(2025, 12, 31, 23, 59, tzinfo=UTC))
    assert len(_listed(client, "actor=WEBHOOK")) == 2
    assert len(_listed(client, "action=step.send")) == 2
    assert len(_listed(client, "action=step.send.bank")) == 1
    assert len(_listed(client, "merchant=3")) == 2
    assert len(_listed(client, "outcome=refused")) == 1
    assert len(_listed(client, "date_to=2025-12-31")) == 1
    assert len(_listed(client, "date_from=2026-01-01&action=step")) == 1
    assert len(_listed(client, "actor=%25")) == 0  # a wildcard is a character, not a pattern
    assert len(_listed(client, "merchant=abc")) == 0  # no merchant has that name


def test_the_audit_trail_is_paged_and_keeps_its_filters(app, client, auth):
    auth.login("admin")
    _audit(app, 120, action="document.store", at=clock.utcnow() - timedelta(minutes=1))
    first = _soup(client.get("/admin/audit?action=document"))
    assert len(first.select("tr[data-event]")) == 50
    assert "Page 1 of 3" in first.select_one(".pagination").get_text()
    following = first.select_one(".pagination a[rel='next']")["href"]
    assert "action=document" in following and "page=2" in following
    last = _soup(client.get("/admin/audit?action=document&page=3"))
    assert len(last.select("tr[data-event]")) == 20


@pytest.mark.parametrize(("query", "field", "message"), [
    ("date_to=9999-12-31", "date_to", "Enter a day between 1 January 2000 and 31 December 2999."),
    ("date_from=0001-01-01", "date_from", "Enter a day between 1 January 2000"),
])
def test_an_audit_filter_out_of_range_is_a_400_beside_its_field(app, client, auth, query, field,
                                                                 message):
    auth.login("admin")
    soup = _soup(client.get(f"/admin/audit?{query}"), 400)
    described = soup.select_one(f"#{field}").get("aria-describedby", "")
    errors = " ".join(soup.select_one(f"#{ref}").get_text(" ", strip=True)
                      for ref in described.split() if soup.select_one(f"#{ref}"))
    assert message in errors
    assert soup.select("tr[data-event]")  # the trail is still shown, unfiltered by that field


def test_the_audit_trail_names_a_deleted_merchant_as_its_deletion_recorded_it(app, client, auth):
    auth.login("admin")
    _audit(app, 1, action="merchant.delete", merchant_id=999, actor_label="asha@example.com",
           detail={"name": "Lotus Traders", "documents": 2})
    soup = _soup(client.get("/admin/audit?action=merchant.delete"))
    assert [td.get_text() for td in soup.select("td.sentence")] == [
        "asha@example.com deleted Lotus Traders."]
    merchant_cell = soup.select_one("td[data-label='Merchant']")
    assert merchant_cell.get_text() == "Lotus Traders (deleted)"
    assert merchant_cell.select_one("a") is None  # its page is gone
    assert '"documents": 2' in soup.select_one("details pre").get_text()


def test_the_audit_trail_names_each_events_merchant_and_links_to_it(app, client, auth):
    [merchant_id] = _add_merchants(app, 1, name="Chai Point")
    _audit(app, 1, merchant_id=merchant_id)
    auth.login("admin")
    soup = _soup(client.get(f"/admin/audit?merchant={merchant_id}&action=step.send.bank"))
    link = soup.select_one("td[data-label='Merchant'] a")
    assert (link.get_text(), link["href"]) == ("Chai Point", f"/merchants/{merchant_id}")
