"""The merchants list: search, status filter, pagination, steps done; constant SQL per page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import event

from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepDraft, StepState

START = datetime(2026, 1, 1, tzinfo=UTC)


def add_merchants(app, count: int, start: int = 0, status: str | None = "IN_PROGRESS",
                  sent: int = 3) -> None:
    """``count`` merchants, each with ``sent`` steps sent and one draft."""
    with app.app_context():
        for n in range(start, start + count):
            merchant = Merchant(
                external_onboarding_id=f"ext-{n:03d}", onboarding_id=f"pg_onboard_{n:03d}",
                pan=f"AAACB{n:04d}C", display_name=f"Shop {n:03d}", legal_name="",
                status=status, create_state=CreateState.CREATED, checklist={},
                documents_outstanding=[], last_activity_at=START + timedelta(minutes=n))
            db.session.add(merchant)
            db.session.flush()
            steps = ["create", "business", "owners", "bank", "signatory"]
            db.session.add_all(
                StepDraft(merchant_id=merchant.id, step=step, payload={}, last_error={},
                          state=StepState.SENT if i < sent else StepState.DRAFT)
                for i, step in enumerate(steps[:sent + 1]))
        db.session.commit()


def shown(page) -> list[str]:
    return [row.find("a").get_text() for row in page.soup.select("table.merchants tbody tr")]


def test_the_list_shows_status_steps_done_and_last_activity(browser, app):
    add_merchants(app, 2, sent=4)
    page = browser.get("/merchants")
    assert shown(page) == ["Shop 001", "Shop 000"]  # most recent activity first
    row = page.soup.select_one("table.merchants tbody tr")
    assert row.select_one(".status").get_text(strip=True) == "Details being sent"
    assert row.select_one(".status")["data-status"] == "IN_PROGRESS"
    assert row.select_one(".steps-done").get_text(strip=True) == "4 / 9"
    assert "2026-01-01 00:01 UTC" in row.get_text()
    assert "AAACB0001C" not in page.text() and "******001C" in page.text()


def test_search_by_name_pan_external_and_onboarding_id(browser, app):
    add_merchants(app, 12)
    for query in ["Shop 007", "shop 007", "AAACB0007C", "ext-007", "pg_onboard_007"]:
        assert shown(browser.get(f"/merchants?q={query}")) == ["Shop 007"], query
    assert shown(browser.get("/merchants?q=AAACB0007")) == []  # a PAN matches in full only
    assert shown(browser.get("/merchants?q=ext_0")) == []  # '_' is not a wildcard


def test_filter_by_status(browser, app):
    add_merchants(app, 3)
    add_merchants(app, 2, start=3, status="PENDING_VERIFICATION")
    add_merchants(app, 1, start=5, status=None)
    assert shown(browser.get("/merchants?status=PENDING_VERIFICATION")) == ["Shop 004",
                                                                            "Shop 003"]
    assert shown(browser.get("/merchants?status=NOT_CREATED")) == ["Shop 005"]
    assert len(shown(browser.get("/merchants"))) == 6


def test_pagination_keeps_the_search(browser, app):
    add_merchants(app, 45)
    first = browser.get("/merchants?q=Shop")
    assert len(shown(first)) == 20
    assert "Page 1 of 3" in first.text()
    last = browser.get(first.soup.find("a", rel="next")["href"].replace("page=2", "page=3"))
    assert shown(last) == [f"Shop {n:03d}" for n in range(4, -1, -1)]
    assert "q=Shop" in first.soup.find("a", rel="next")["href"]
    assert shown(browser.get("/merchants?page=99")) == shown(last)  # clamped to the last page


def test_beyond_the_cap_the_most_recent_are_paged_and_the_rest_found_by_search(
        browser, app, monkeypatch):
    monkeypatch.setattr("portal.features.merchants.service.COUNT_CAP", 25)
    add_merchants(app, 45)
    first = browser.get("/merchants")
    assert "More than 25 merchants" in first.text()
    assert "Page 1 of 2" in first.text()
    last = browser.get("/merchants?page=99")  # clamped to the last page within the cap
    assert shown(last) == [f"Shop {n:03d}" for n in range(24, 19, -1)]
    assert last.soup.find("a", rel="next") is None
    assert shown(browser.get("/merchants?q=ext-003")) == ["Shop 003"]  # an old one, by its id
    assert "1 merchant" in browser.get("/merchants?q=Shop 003").text()


def count_statements(app, client, url: str) -> int:
    """How many SQL statements one request runs."""
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    engine = db.engine(app)
    event.listen(engine, "before_cursor_execute", count)
    try:
        assert client.get(url).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(statements)


def test_the_list_runs_the_same_number_of_statements_for_5_and_50_merchants(browser, app):
    add_merchants(app, 5)
    with_five = count_statements(app, browser.client, "/merchants")
    add_merchants(app, 45, start=5)
    with_fifty = count_statements(app, browser.client, "/merchants")
    assert with_five == with_fifty
    assert with_fifty <= 5
