"""Two ``flask worker`` processes on one PostgreSQL: one is killed with SIGKILL in the middle of
a 50-row import, with rows in flight, the other takes the job over when the lease runs out and
finishes it: no merchant created twice, no row skipped."""

from __future__ import annotations

import signal
from contextlib import ExitStack

import pytest
from sqlalchemy import select

from portal.app.worker.sync import sync_once
from portal.core import clock
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.webhook_event import WebhookEvent
from portal.features.bulk.import_job import KIND
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.jobs.support import (
    queue_import,
    stored_import,
    stored_jobs,
    stored_rows,
    taken_over_and_finished,
    wait_for,
)
from tests.support.workers import worker_process
from tests.worker.support import CONCURRENCY, sent

pytestmark = pytest.mark.postgres

ROWS = 50
HALF = ROWS // 2


def held_by(app, pid: int) -> bool:
    """Whether the import's job is claimed by the worker with process id ``pid``."""
    [job] = stored_jobs(app, KIND)
    return job.worker.endswith(f":{pid}")


def hold_products_sends_midway(sandbox) -> None:
    """Products sends pass for ``HALF`` rows, then those of the ``CONCURRENCY`` rows in flight
    are held 20 s (so no other row starts); every create counted."""
    sandbox.state.faults.set(
        Fault(FaultKind.LATENCY, operation="configure_products", times=HALF),
        Fault(FaultKind.LATENCY, operation="configure_products", times=CONCURRENCY,
              seconds=20),
        Fault(FaultKind.LATENCY, operation="create_onboarding"))


def test_a_worker_killed_mid_import_is_taken_over(app, settings, sandbox, tmp_path):
    import_id = queue_import(app, ROWS)
    hold_products_sends_midway(sandbox)
    with ExitStack() as stack:
        first = stack.enter_context(worker_process(settings, tmp_path / "first.log"))
        wait_for(lambda: held_by(app, first.pid), "the first worker to claim the import")
        second = stack.enter_context(worker_process(settings, tmp_path / "second.log"))
        wait_for(lambda: sent(sandbox, "PUT") == HALF + CONCURRENCY,
                 "the products sends of rows 26-29 in flight")
        first.send_signal(signal.SIGKILL)  # in the middle of rows, half the rows done
        assert first.wait(timeout=30) == -signal.SIGKILL
        assert stored_import(app, import_id).done == HALF

        wait_for(lambda: stored_import(app, import_id).state != "running", "the import's end",
                 seconds=240)
        assert second.poll() is None  # the survivor finished it and goes on until stopped
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=30) == 0
        assert "stopped" in (tmp_path / "second.log").read_text()

    # the rows in flight were resumed (their merchants existed), every other one created once
    _, rows = taken_over_and_finished(app, import_id, ROWS, CONCURRENCY)
    # the rows in flight when the worker died: started in file order, but on a loaded machine
    # one may reach its products send after a later row's, so they are near HALF, not exactly
    # the 4 after it
    resumed = [n for n, r in enumerate(rows) if r.outcome["resumed"]]
    assert len(resumed) == CONCURRENCY
    assert set(resumed) <= set(range(HALF - CONCURRENCY, HALF + CONCURRENCY)), resumed
    assert sent(sandbox, "POST") == ROWS  # one create per merchant
    with app.app_context():
        merchants = list(db.session.scalars(select(Merchant)))
    assert sorted(m.external_onboarding_id for m in merchants) == [
        f"jobs-{n:03d}" for n in range(1, ROWS + 1)]
    assert {m.create_state for m in merchants} == {"created"}
    [job] = stored_jobs(app, KIND)
    assert (job.state, job.attempts, job.worker) == ("done", 2, "")


def hold_creates_midway(sandbox) -> None:
    """Creates pass for ``HALF`` rows, then those of the ``CONCURRENCY`` rows in flight are
    held 6 s (they land at the gateway after the worker that sent them died, killed as soon as
    the last of them arrived: the test waits for them at its end); products sends
    are counted."""
    sandbox.state.faults.set(
        Fault(FaultKind.LATENCY, operation="create_onboarding", times=HALF),
        Fault(FaultKind.LATENCY, operation="create_onboarding", times=CONCURRENCY, seconds=6),
        Fault(FaultKind.LATENCY, operation="create_onboarding"),
        Fault(FaultKind.LATENCY, operation="configure_products"))


def test_a_create_in_flight_when_its_worker_dies_is_reported_unknown_never_done(
        app, settings, sandbox, tmp_path):
    import_id = queue_import(app, ROWS)
    hold_creates_midway(sandbox)
    with ExitStack() as stack:
        first = stack.enter_context(worker_process(settings, tmp_path / "first.log"))
        wait_for(lambda: held_by(app, first.pid), "the first worker to claim the import")
        stack.enter_context(worker_process(settings, tmp_path / "second.log"))
        wait_for(lambda: sent(sandbox, "POST") == HALF + CONCURRENCY,
                 "the creates of the rows after the first half in flight")
        first.send_signal(signal.SIGKILL)  # while those creates wait for their answers
        assert first.wait(timeout=30) == -signal.SIGKILL
        wait_for(lambda: stored_import(app, import_id).state != "running", "the import's end",
                 seconds=240)

    done = stored_import(app, import_id)
    assert (done.state, done.done, done.total) == ("finished", ROWS, ROWS)
    assert done.counts == {"created": ROWS - CONCURRENCY, "resumed": CONCURRENCY,
                           "completed": 0, "awaiting_documents": ROWS - CONCURRENCY,
                           "outcome_unknown": CONCURRENCY, "linked": 0, "failed": 0}
    unknown = [r for r in stored_rows(app, import_id) if r.state == "outcome_unknown"]
    assert len(unknown) == CONCURRENCY
    assert all("may or may not have been created" in r.outcome["reason"] for r in unknown)
    assert sent(sandbox, "POST") == ROWS  # no create was sent again for them
    with app.app_context():
        states = dict(db.session.execute(select(Merchant.id, Merchant.create_state)).all())
    assert sorted(states[r.outcome["merchantId"]] for r in unknown) == [
        "outcome_unknown"] * CONCURRENCY
    problems = {p["row"]: p for p in done.problems}
    assert {problems[r.number]["state"] for r in unknown} == {"outcome_unknown"}

    # the held creates did land at the gateway; a webhook naming each links it at the next sync
    records = sandbox.state.onboarding._records.values
    wait_for(lambda: {r.external_id for r in records()} >= {
        r.outcome["externalOnboardingId"] for r in unknown}, "the held creates to land")
    with app.app_context():
        named = [r.onboarding_id for r in records()
                 if r.external_id in {u.outcome["externalOnboardingId"] for u in unknown}]
        db.session.add_all(WebhookEvent(dedup_key=f"id:{n}", event_name="IN_PROGRESS",
                                        onboarding_id=n, body="{}", received_at=clock.utcnow())
                           for n in named)
        db.session.commit()
        report = sync_once(onboarding_client(current_settings()))
    assert f"{CONCURRENCY} bulk rows of unknown outcome linked" in report.summary()
    linked = stored_import(app, import_id)
    assert (linked.counts["outcome_unknown"], linked.counts["linked"]) == (0, CONCURRENCY)
    assert {r.state for r in stored_rows(app, import_id)} == {"awaiting_documents", "linked"}
    assert all("it was created" in p["reason"] for p in linked.problems if p["state"] == "linked")
    assert sent(sandbox, "POST") == ROWS
