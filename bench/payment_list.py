"""The payments list, its search and its CSV export at 100,000 payments vs 100 (of the same two
merchants), on SQLite and on a throwaway PostgreSQL: median time of several runs, and SQL
statements per request, with the merchants list's targets (``bench.pages``). Each page shows as
many rows at both sizes (a full page of 50, or the one payment searched for), so the figures
compare finding them, not drawing more of them."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask

from bench.business_names import business_name
from bench.measure import Row
from bench.pages import at_both_sizes
from bench.payment_seed import amount, email, reference, seed_payments
from bench.seed import seed_merchants
from bench.stack import Bench

#: The merchants the payments are spread over, in turn (payment 50 is the first's).
MERCHANTS = 2
#: The merchant's own list also reads its credentials and approval requests, and every page
#: the navigation's counts (a team's day: its worklist, unread notices and approvals in one).
STATEMENT_LIMIT = 8
#: Every filter set, each finding payment 50.
EVERY_FILTER = {"q": email(50), "amount": amount(50), "merchant": business_name(1),
                "date_from": "2026-01-01", "date_to": "2026-01-01", "status": "AUTHORIZED"}
#: Payment 50 exists at both sizes: every search looks for it.
PAGES = {
    "list, first page": "/payments",
    "list, page 2": "/payments?page=2",
    "one merchant's payments": "/merchants/2/payments",
    "search by order reference": f"/payments?q={reference(50)}",
    "search by customer email": f"/payments?{urlencode({'q': email(50)})}",
    "search by merchant": f"/payments?{urlencode({'merchant': business_name(2)})}",
    "search by amount": f"/payments?amount={amount(50)}",
    "one day": "/payments?date_from=2026-01-01&date_to=2026-01-01",
    "status": "/payments?status=AUTHORIZED",
    "holds expiring soon (the dashboard's link)": "/payments?status=expiring",
    "all filters at once": f"/payments?{urlencode(EVERY_FILTER)}",
    "CSV export of a search": f"/payments/export.csv?{urlencode({'q': email(50)})}",
    "admin dashboard": "/admin/",
}


def run(bench: Bench) -> list[Row]:
    """Measure every page at 100 and at 100,000 payments, on SQLite then PostgreSQL."""
    return at_both_sizes(bench, "payment-list", "Payments at 100,000", PAGES, _seed,
                         STATEMENT_LIMIT)


def _seed(app: Flask, size: int) -> None:
    seed_payments(app, size, seed_merchants(app, MERCHANTS))
