"""Finding payments: by order reference, gateway reference or customer email (whole), part of
a merchant's name, an exact amount however it is written, a range of days and a status; a
filter that cannot be read is refused beside its field; the statements per page stay fixed."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlencode

import pytest
from sqlalchemy import event

from portal.core.db import db
from portal.domain.payments.search import finding
from tests.payments.search.support import add_payment, references
from tests.payments.support import add_merchant


@pytest.fixture
def shops(app, merchant_id) -> dict[str, int]:
    """Three payments of Chai Point and two of Dosa Corner, on different days and amounts."""
    dosa = add_merchant(app, "APPROVED", name="Dosa Corner")
    add_payment(app, merchant_id, "PTCHAI1", "1250.5", "Asha@Example.com",
                datetime(2026, 3, 1, 9, tzinfo=UTC))
    add_payment(app, merchant_id, "PTCHAI2", "99", "ravi@example.com",
                datetime(2026, 3, 2, 23, 59, tzinfo=UTC))
    add_payment(app, merchant_id, "PTCHAI3", "1250.50", None,
                datetime(2026, 3, 3, 0, 0, tzinfo=UTC), status="REVERSED")
    add_payment(app, dosa, "PTDOSA1", "1,250.5000".replace(",", ""), "asha@example.com",
                datetime(2026, 3, 4, tzinfo=UTC))
    add_payment(app, dosa, "PTDOSA2", "7.25", "meera@example.com",
                datetime(2026, 3, 5, tzinfo=UTC))
    return {"chai": merchant_id, "dosa": dosa}


def found(browser, **query: str) -> list[str]:
    page = browser.get(f"/payments?{urlencode(query)}")
    assert page.response.status_code == 200, page.text()
    return references(page)


def test_every_filter_finds_what_it_says(browser, shops):
    assert found(browser) == ["PTDOSA2", "PTDOSA1", "PTCHAI3", "PTCHAI2", "PTCHAI1"]
    assert found(browser, q="PTCHAI2") == ["PTCHAI2"]
    assert found(browser, q=" gl_o-PTDOSA1 ") == ["PTDOSA1"]  # the gateway's reference
    assert found(browser, q="PTCHAI") == []  # references are compared whole
    assert found(browser, q="ASHA@example.COM") == ["PTDOSA1", "PTCHAI1"]
    assert found(browser, merchant="dosa") == ["PTDOSA2", "PTDOSA1"]
    assert found(browser, merchant="100%") == []  # typed characters, never patterns
    assert found(browser, amount="1250.5") == ["PTDOSA1", "PTCHAI3", "PTCHAI1"]
    assert found(browser, amount="1,250.50") == ["PTDOSA1", "PTCHAI3", "PTCHAI1"]
    assert found(browser, date_from="2026-03-02", date_to="2026-03-03") == [
        "PTCHAI3", "PTCHAI2"]  # whole UTC days, both ends in
    assert found(browser, status="REVERSED") == ["PTCHAI3"]
    assert found(browser, q="asha@example.com", merchant="chai", amount="1250.50",
                 date_to="2026-03-01") == ["PTCHAI1"]


def test_one_merchants_list_searches_its_own_payments(browser, shops):
    page = browser.get(f"/merchants/{shops['chai']}/payments?amount=1250.5")
    assert references(page) == ["PTCHAI3", "PTCHAI1"]
    assert page.soup.find(attrs={"name": "merchant"}) is None
    assert references(browser.get(
        f"/merchants/{shops['chai']}/payments?q=meera@example.com")) == []


BOTH = ["PTDOSA2", "PTDOSA1"]


@pytest.mark.parametrize(("query", "field", "message", "listed"), [
    ({"amount": "twelve"}, "amount",
     "Enter an amount in digits with at most 4 decimal places, e.g. 1250.50.", BOTH),
    ({"amount": "1.00001"}, "amount",
     "Enter an amount in digits with at most 4 decimal places, e.g. 1250.50.", BOTH),
    ({"date_from": "2026-02-30"}, "date_from", "Not a valid date value.", BOTH),
    ({"date_from": "2026-03-05", "date_to": "2026-03-01"}, "date_to",
     "The last day is before the first: swap them.", ["PTDOSA2"]),
    ({"date_to": "1999-12-31"}, "date_to",
     "Enter a day between 1 January 2000 and 31 December 2999.", BOTH),
])
def test_a_filter_that_cannot_be_read_is_refused_beside_it(browser, shops, query, field,
                                                           message, listed):
    page = browser.get(f"/payments?{urlencode({**query, 'merchant': 'dosa'})}")
    assert page.response.status_code == 400
    assert page.errors_for(field) == [message]
    assert references(page) == listed  # the readable filters still apply
    assert page.soup.find(attrs={"name": field})["value"] == query[field]  # typing kept


def test_pages_keep_the_filters_and_a_long_list_is_counted_to_a_cap(app, browser, merchant_id,
                                                                    monkeypatch):
    monkeypatch.setattr(finding, "COUNT_CAP", 52)
    for n in range(55):
        add_payment(app, merchant_id, f"PT{n:02d}", "5",
                    created=datetime(2026, 3, 1, 0, n, tzinfo=UTC))
    add_payment(app, merchant_id, "PTOTHER", "6")
    page = browser.get("/payments?amount=5")
    assert "More than 52 payments: the 52 newest are listed" in page.text()
    assert references(page)[:2] == ["PT54", "PT53"] and len(references(page)) == 50
    following = page.soup.select_one("a[rel=next]")["href"]
    assert "amount=5" in following
    assert references(browser.get(following)) == ["PT04", "PT03"]
    assert references(browser.get("/payments?amount=5&page=9")) == ["PT04", "PT03"]


def count_statements(app, browser, path: str) -> int:
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    event.listen(db.engine(app), "before_cursor_execute", count)
    try:
        assert browser.get(path).response.status_code == 200
    finally:
        event.remove(db.engine(app), "before_cursor_execute", count)
    return len(seen)


@pytest.mark.parametrize("query", [
    "", "q=PT7", "q=c7%40example.com", "merchant=chai", "amount=7",
    "date_from=2026-03-01&date_to=2026-03-02", "status=AUTHORIZED", "status=expiring"])
def test_a_page_takes_the_same_statements_however_many_payments(app, browser, merchant_id,
                                                                query):
    add_payment(app, merchant_id, "PT7", "7", "c7@example.com")
    few = count_statements(app, browser, f"/payments?{query}")
    for n in range(40):
        add_payment(app, merchant_id, f"PTX{n}", "7", f"c{n}@example.com",
                    datetime(2026, 3, 1, 10, tzinfo=UTC))
    assert count_statements(app, browser, f"/payments?{query}") == few
