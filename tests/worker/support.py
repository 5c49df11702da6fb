"""What the folder's tests share, for them and other folders' to
import (a test imports no conftest and no other test module)."""

from __future__ import annotations

from portal.core.config import Settings

#: Rows a worker has in flight: BULK_CONCURRENCY's default, which these workers run with.
CONCURRENCY = Settings.model_fields["bulk_concurrency"].default


def sent(sandbox, method: str) -> int:
    """How many requests of ``method`` the faults above counted."""
    return sum(1 for hit in sandbox.state.faults.applied() if hit.method == method)
