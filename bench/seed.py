"""Seeding many merchants fast, with bulk inserts (the list benchmark and the SQL guards)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask
from sqlalchemy import Column, MetaData, Table, Text, func, insert, select, text
from sqlalchemy.engine import Dialect

from bench.business_names import business_name
from portal.core.db import Base, db
from portal.core.encryption import current_cipher
from portal.core.models.document import DocumentStatus, StoredDocument
from portal.core.models.merchant import CreateState, Merchant
from portal.core.models.step import StepDraft, StepState
from portal.core.models.types import EncryptedJSON, EncryptedText

START = datetime(2026, 1, 1, tzinfo=UTC)
#: Merchants inserted per executemany (bounds the memory a large seed takes).
BATCH = 10_000
#: The steps each seeded merchant has sent (a list row counts them).
SENT_STEPS = ("create", "business", "owners")
#: Every seeded merchant's status (the dashboard's counts per status include them).
SEEDED_STATUS = "IN_PROGRESS"


def seed_merchants(app: Flask, count: int, *, owners: int = 1, documents: int = 0,
                   status: str = SEEDED_STATUS) -> list[int]:
    """Insert ``count`` merchants of ``app`` with real-looking names, three steps sent,
    ``owners`` owners and ``documents`` stored documents each (encrypted with the app's keys),
    at ``status``, counted per status by the database's triggers as every merchant is; return
    their ids."""
    with app.app_context(), db.engine(app).begin() as conn:
        first = (conn.scalar(select(func.max(Merchant.id))) or 0) + 1
        ids = list(range(first, first + count))
        seal = _Sealer(conn.dialect)
        # a draft differs between merchants only by its merchant id: sealed once per step
        drafts = [seal(StepDraft, _draft(0, step, owners)) for step in SENT_STEPS]
        merchants = _plain(Merchant)
        for start in range(0, count, BATCH):
            batch = ids[start:start + BATCH]
            # RETURNING makes SQLAlchemy batch the rows into multi-row INSERTs ("insertmanyvalues",
            # 1,000 a statement): PostgreSQL's counting trigger runs once per statement, and
            # a plain executemany (a statement per row) moved one count row 100,000 times
            conn.execute(insert(merchants).returning(merchants.c.id),
                         [seal(Merchant, _merchant(n, status)) for n in batch])
            conn.execute(insert(_plain(StepDraft)), [
                {**draft, "merchant_id": n} for n in batch for draft in drafts])
        if documents:
            conn.execute(insert(StoredDocument), [
                _document(n, d) for n in ids for d in range(documents)])
        if conn.dialect.name == "postgresql" and ids:
            # the ids were given, not drawn: the next merchant the portal adds draws after them
            conn.execute(text("SELECT setval(pg_get_serial_sequence('merchants', 'id'), :last)"),
                         {"last": ids[-1]})
    return ids


def _encrypted(model: type[Base]) -> dict[str, Any]:
    return {c.name: c.type for c in model.__table__.columns
            if isinstance(c.type, EncryptedText | EncryptedJSON)}


def _plain(model: type[Base]) -> Table:
    """The model's table with its encrypted columns as plain text, for values sealed already."""
    return Table(model.__tablename__, MetaData(), *(
        Column(c.name, Text if c.name in _encrypted(model) else c.type, primary_key=c.primary_key)
        for c in model.__table__.columns))


class _Sealer:
    """Encrypts each distinct value of an encrypted column once, as its column type does (and
    the PAN's blind index once per PAN): the drafts' Fernet tokens per row would make seeding
    minutes long."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.done: dict[tuple[str, str], Any] = {}
        self.columns = {model: _encrypted(model) for model in (Merchant, StepDraft)}

    def __call__(self, model: type[Base], row: dict[str, Any]) -> dict[str, Any]:
        """``row`` with its encrypted columns' values replaced by their tokens."""
        for name, column_type in self.columns[model].items():
            value = row[name]
            key = (name, value if isinstance(value, str) else json.dumps(value, sort_keys=True))
            if key not in self.done:
                self.done[key] = column_type.process_bind_param(row[name], self.dialect)
            row[name] = self.done[key]
        if "pan" in row:
            row["pan_index"] = self._index(row.pop("pan_index"))
        return row

    def _index(self, pan: str) -> str:
        key = ("pan_index", pan)
        if key not in self.done:
            self.done[key] = current_cipher().pan_index(pan)
        return str(self.done[key])


def seeded_pan(n: int) -> str:
    """Merchant ``n``'s PAN: a company's, distinct for each ``n`` below 260,000 (as a business's
    PAN is its own), so a search by PAN finds one merchant however many there are."""
    return f"AAAC{chr(ord('A') + n // 10000 % 26)}{n % 10000:04d}C"


def _merchant(n: int, status: str) -> dict[str, Any]:
    pan = seeded_pan(n)
    return {"id": n, "external_onboarding_id": f"seed-{n:06d}",
            "onboarding_id": f"pg_onboard_seed{n:06d}", "pan": pan,
            "pan_index": pan,  # the sealer turns it into the blind index
            "display_name": business_name(n), "legal_name": "", "status": status,
            "create_state": CreateState.CREATED, "created_at": START,
            "last_activity_at": START + timedelta(seconds=n), "checklist": {},
            "documents_outstanding": [], "rfi_details": None, "rfi_details_cut": False}


def _draft(n: int, step: str, owners: int) -> dict[str, Any]:
    payload = {"owners": [{"designation": "Director", "name": f"Owner {o}",
                           "pan": f"ABCPO{o:04d}K", "percentageOwnership": "10"}
                          for o in range(owners)]} if step == "owners" else {}
    return {"merchant_id": n, "step": step, "payload": payload, "state": StepState.SENT,
            "last_error": {}, "last_gid": "", "updated_at": START, "version": 1}


def _document(n: int, d: int) -> dict[str, Any]:
    return {"merchant_id": n, "doc_type": f"DOC_{d}", "original_filename": f"doc{d}.pdf",
            "stored_name": f"seed-{n}-{d}.pdf", "sha256": "0" * 64, "size": 1024,
            "content_type": "application/pdf", "uploaded_at": START, "sent_gid": "",
            "status": DocumentStatus.SENT}
