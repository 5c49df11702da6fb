"""The banks an IFSC's first four letters name, read from ``bank_codes.csv`` (shipped data).

Source: the Reserve Bank of India's list of banks in India
(https://www.rbi.org.in/commonman/english/scripts/banksinindia.aspx), with each bank's IFSC
prefix as NPCI's list of live NACH members gives it; the same grouping razorpay/ifsc keeps in
``src/patches/banks/type-*.yml``. It holds the public, private, small finance, payments and
foreign banks, and the banks merged since 2019 (their branches have new IFSCs); not the
cooperative and regional rural banks, so a code missing here is only doubtful (an advisory
check).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: The shipped list, one bank a row: code, bank, kind, merged_into.
DATA_FILE = Path(__file__).with_name("bank_codes.csv")


@dataclass(frozen=True)
class Bank:
    """A bank as its IFSC prefix names it; ``merged_into`` the bank that took it over."""

    code: str
    name: str
    kind: str
    merged_into: str = ""


@cache
def banks() -> dict[str, Bank]:
    """Every bank of the shipped list by its four-letter code (read once)."""
    with DATA_FILE.open(newline="", encoding="utf-8") as handle:
        return {row["code"]: Bank(row["code"], row["bank"], row["kind"], row["merged_into"])
                for row in csv.DictReader(handle)}


def bank_of(ifsc: str) -> Bank | None:
    """The bank an IFSC belongs to by its first four letters; None when the list lacks it."""
    return banks().get(ifsc[:4].upper())
