"""Regression guards of the bulk import job: SQL statements and commits per merchant stay
within a fixed budget however many rows the file has (no query per row of the import)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event

from bench.measure import commits, statements
from portal.app.factory import create_app
from portal.app.worker.loop import WorkerOptions, run_next
from portal.core.db import db
from portal.features.bulk import service
from tests.jobs.support import ADMIN, many_merchants, queue_import, stored_import

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


#: What one more merchant of the example costs when rows go one at a time: its steps 1-5 and 7
#: through the wizard's services (the merchant checked and started, no draft read: it has
#: none; the create stored with the merchant before it is sent and its answer after; each
#: other step and its answer in one commit) and the job's record of its outcome (the lease,
#: the row, the import); and its two status moves' events for partners' software (each an
#: insert and a read of the endpoints that want it). Was 71 statements and 14 commits (13
#: draft reads, a commit before every send).
EXACT_STATEMENTS_PER_MERCHANT = 44
EXACT_COMMITS_PER_MERCHANT = 8


def run_import_counted(settings, rows: int, tag: str) -> tuple[int, int]:
    """The statements and commits of a worker running an import of ``rows`` new merchants
    (their ids and PANs marked with the letter ``tag``), one row at a time."""
    app = create_app(settings.with_changes(bulk_concurrency=1))
    with app.app_context():
        content = many_merchants(rows, tag, f"{tag}BCCD")
        import_id = service.submit(content, "merchants.csv", ADMIN).id
    with commits(app) as made, statements(app) as seen:
        assert run_next(app, WorkerOptions(name="counted"), threading.Event())
    assert stored_import(app, import_id).counts["awaiting_documents"] == rows
    db.engine(app).dispose()
    return len(seen), len(made)


def test_each_merchant_of_an_import_costs_exactly_the_same_statements(settings, sandbox):
    few, few_commits = run_import_counted(settings, 2, "F")
    more, more_commits = run_import_counted(settings, 5, "M")
    assert (more - few) / 3 == EXACT_STATEMENTS_PER_MERCHANT
    assert (more_commits - few_commits) / 3 == EXACT_COMMITS_PER_MERCHANT
