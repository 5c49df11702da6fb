"""Each key's calls per minute, counted in the database so every portal host shares one limit.

A call is counted before it runs, in one atomic upsert (``calls = calls + 1 ... RETURNING``),
so calls made at once on several hosts cannot overwrite each other's counts. A fixed window
per whole minute: simple to read back, and at worst twice the limit across a minute's edge.
"""

from __future__ import annotations

import math
from datetime import datetime

from sqlalchemy import delete

from portal.core.db import db, upsert_insert
from portal.core.models.api_key import ApiKey, ApiRateWindow

WINDOW_SECONDS = 60


def count_call(key: ApiKey, now: datetime) -> int | None:
    """Count one call of ``key`` at ``now`` and commit; None when it is within the key's limit,
    else the seconds until the next window opens (the answer's Retry-After)."""
    minute = int(now.timestamp() // WINDOW_SECONDS)
    statement = upsert_insert()(ApiRateWindow).values(api_key_id=key.id, minute=minute, calls=1)
    calls = db.session.scalar(statement.on_conflict_do_update(
        index_elements=[ApiRateWindow.api_key_id, ApiRateWindow.minute],
        set_={"calls": ApiRateWindow.calls + 1},
    ).returning(ApiRateWindow.calls).execution_options(synchronize_session=False))
    db.session.execute(delete(ApiRateWindow).where(ApiRateWindow.api_key_id == key.id,
                                                   ApiRateWindow.minute < minute))
    db.session.commit()
    if calls is not None and calls <= key.per_minute:
        return None
    return max(1, math.ceil((minute + 1) * WINDOW_SECONDS - now.timestamp()))
