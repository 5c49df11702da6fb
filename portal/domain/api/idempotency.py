"""Idempotency-Key: a POST repeated within a day gets the first answer and does nothing again.

The key is claimed before the request runs, by inserting its row (unique per API key and
Idempotency-Key) and committing: of two requests sent at once one inserts, and the other is
told the first is still running (409) or, once it has finished, gets its answer. The row keeps
a fingerprint of the method, path and body: a repeat that differs is refused (422). An answer
of 500 or more is not kept, so the request may be tried again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from portal.core.db import db
from portal.core.models.api_key import IdempotentRequest

#: How long an answer is kept and given again.
KEPT_FOR = timedelta(hours=24)
KEY_MAX = 255


@dataclass(frozen=True)
class Claim:
    """What an Idempotency-Key says about this request.

    ``row`` set: this request runs, and its answer is kept in that row. Else ``replay`` is the
    first request's answer, or ``conflict`` says why this one may not run (``status`` 409 or
    422)."""

    row: IdempotentRequest | None = None
    replay: IdempotentRequest | None = None
    conflict: str = ""
    status: int = 0


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What makes two requests the same request."""
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + body).hexdigest()


def claim(api_key_id: int, key: str, print_: str, now: datetime) -> Claim:
    """Claim ``key`` for this request (committed at once), or say what the first one left."""
    db.session.execute(delete(IdempotentRequest).where(
        IdempotentRequest.api_key_id == api_key_id, IdempotentRequest.idempotency_key == key,
        IdempotentRequest.created_at <= now - KEPT_FOR))
    row = IdempotentRequest(api_key_id=api_key_id, idempotency_key=key, fingerprint=print_,
                            created_at=now, location="")
    db.session.add(row)
    try:
        db.session.commit()
        return Claim(row=row)
    except IntegrityError:
        db.session.rollback()
    first = db.session.scalar(select(IdempotentRequest).where(
        IdempotentRequest.api_key_id == api_key_id, IdempotentRequest.idempotency_key == key))
    if first is None:  # the first one failed and let go meanwhile: this one may try again
        return claim(api_key_id, key, print_, now)
    if first.fingerprint != print_:
        return Claim(conflict="This Idempotency-Key was used for a different request; use a "
                              "new key for a new request.", status=422)
    if first.status is None:
        return Claim(conflict="The first request with this Idempotency-Key is still running; "
                              "repeat it in a moment to get its answer.", status=409)
    return Claim(replay=first)


def keep(row: IdempotentRequest, status: int, answer: Any, location: str) -> None:
    """Keep the claimed request's answer to give again, or let the key go after a failure of
    the portal's own (500 or more), so that a retry runs; commits."""
    row = db.session.merge(row)
    if status >= 500:
        db.session.delete(row)
    else:
        row.status, row.answer, row.location = status, answer, location
    db.session.commit()
