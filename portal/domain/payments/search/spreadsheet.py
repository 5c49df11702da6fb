"""The payments list as CSV: the filtered payments, newest first, one line at a time (an export
of every payment streams rather than being built in memory), cells safe for spreadsheets."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import datetime

from portal.core.spreadsheet_cells import export_cell
from portal.domain.payments.links.standing import label_of
from portal.domain.payments.search.finding import FoundPayment
from portal.domain.payments.wording import ledger_of, status_words

HEADER = ("Merchant", "Order reference", "Gateway reference", "Amount", "Currency", "Captured",
          "Refunded", "Status", "Status code", "Guest", "Customer email", "Payment link",
          "Created (UTC)", "Authorised (UTC)")


def _line(cells: Iterable[object]) -> str:
    out = io.StringIO()
    csv.writer(out).writerow([export_cell(cell) for cell in cells])
    return out.getvalue()


def _when(moment: datetime | None) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S}" if moment is not None else ""


def csv_lines(rows: Iterable[FoundPayment], now: datetime) -> Iterator[str]:
    """The header, then one line per payment (``now`` judges whether a link expired)."""
    yield _line(HEADER)
    for row in rows:
        p = row.payment
        ledger = ledger_of(p, row.refunds)
        yield _line((
            row.merchant_name, p.merchant_txn_id, p.gid or "", p.amount, p.currency,
            p.captured_amount or "", ledger.refunded if ledger.refunded else "",
            status_words(p, row.refunds), p.status, p.customer_name or "", p.customer_email or "",
            label_of(row.link, p, now) if row.link is not None else "",
            _when(p.created_at), _when(p.authorized_at)))
