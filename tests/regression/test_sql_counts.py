"""Regression guards: pages run the same number of SQL statements however much data there is."""

from __future__ import annotations

from urllib.parse import urlencode

from bench.business_names import business_name
from bench.seed import seed_merchants

#: The most statements the merchants list may run (sign-in lookup, count, page).
LIST_LIMIT = 6


def seed(app, count: int, **options: int) -> list[int]:
    return seed_merchants(app, count, **options)


def test_the_merchants_list_runs_a_constant_few_statements(app, auth, count_get):
    auth.login("ops")
    seed(app, 5)
    small = count_get("/merchants")
    seed(app, 45)
    large = count_get("/merchants")
    assert small == large <= LIST_LIMIT


def test_a_search_by_name_runs_a_constant_few_statements(app, auth, count_get):
    auth.login("ops")
    seed(app, 5)
    path = f"/merchants?{urlencode({'q': business_name(3)})}"
    small = count_get(path)
    seed(app, 45)
    assert count_get(path) == small <= LIST_LIMIT


def test_a_step_page_does_not_grow_with_owners_or_documents(app, auth, count_get, sandbox):
    auth.login("ops")
    (few,) = seed(app, 1, owners=1, documents=1)
    (many,) = seed(app, 1, owners=10, documents=10)
    for step in ("business", "owners", "documents"):
        count_get(f"/merchants/{few}/steps/{step}")  # warm the category cache
        assert count_get(f"/merchants/{few}/steps/{step}") == \
            count_get(f"/merchants/{many}/steps/{step}"), step


def test_the_admin_dashboard_runs_a_constant_number_of_statements(app, auth, count_get):
    auth.login("admin")
    seed(app, 5)
    small = count_get("/admin/")
    seed(app, 25)
    assert count_get("/admin/") == small
