"""Regression guards of the bulk import job: SQL statements and commits per merchant stay
within a fixed budget however many rows the file has (no query per row of the import)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event

from bench.measure import statements
from portal.core.db import db
from portal.worker.loop import WorkerOptions, run_next
from tests.jobs.support import queue_import, stored_import

#: What the wizard's step service runs for one merchant of the example (steps 1-5 and 7),
#: with the job's own share (the row's outcome, the counts, the lease).
STATEMENTS_PER_MERCHANT = 88
#: At most one commit per step's draft, one before each send, one per answer, one per outcome.
COMMITS_PER_MERCHANT = 19
#: The job's fixed part: the claim, reading the rows, the end.
JOB_STATEMENTS = 12
JOB_COMMITS = 6


@pytest.mark.parametrize("rows", [4, 8])
def test_an_import_runs_a_fixed_budget_of_statements_per_merchant(app, sandbox, rows):
    import_id = queue_import(app, rows)
    commits: list[int] = []
    event.listen(db.engine(app), "commit", lambda _conn: commits.append(1))
    with statements(app) as seen:
        assert run_next(app, WorkerOptions(name="counted"), threading.Event())
    assert stored_import(app, import_id).counts["awaiting_documents"] == rows
    assert len(seen) <= rows * STATEMENTS_PER_MERCHANT + JOB_STATEMENTS
    assert len(commits) <= rows * COMMITS_PER_MERCHANT + JOB_COMMITS
