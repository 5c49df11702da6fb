"""The periodic refresh: one pass as a function, and ``flask sync`` (the workers repeat it)."""

from __future__ import annotations

from portal.app.worker.sync import sync_once
from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import SYSTEM
from portal.domain.onboarding.status_history import change_status
from tests.support.rows import stored
from tests.verification.support import backend_of, onboard


def _status_reads(sandbox) -> list[str]:
    return [r.raw_path for r in backend_of(sandbox).received_requests()
            if r.method == "GET" and r.raw_path.endswith("/status")]


def test_a_pass_reads_every_open_record_and_skips_final_ones(app, sandbox):
    open_id, final_id = onboard(app, until="business"), onboard(app, until="create")
    not_created = onboard(app, until="create")
    with app.app_context():
        change_status(db.session.get(Merchant, final_id), "REJECTED", "poll", actor=SYSTEM)
        db.session.get(Merchant, not_created).onboarding_id = None
        db.session.commit()
        before = len(_status_reads(sandbox))  # the docs' short answers are followed by reads
        report = sync_once(onboarding_client(current_settings()))
    assert (report.read, report.moved, report.failed) == (1, 0, 0)
    assert _status_reads(sandbox)[before:] == [
        f"/gcc/v2/partner/merchant/onboard/{stored(app, open_id).onboarding_id}/status"]


def test_a_pass_counts_failed_reads_and_changes_nothing(app, sandbox, settings, closed_port):
    merchant_id = onboard(app, until="business")
    with app.app_context():
        report = sync_once(onboarding_client(settings.with_changes(onboarding_url=closed_port)))
    assert (report.read, report.failed) == (1, 1)
    assert stored(app, merchant_id).status == "IN_PROGRESS"


def test_the_command_runs_one_pass(app, runner, sandbox):
    merchant_id = onboard(app)
    backend_of(sandbox).complete_verification(stored(app, merchant_id).onboarding_id)
    result = runner.invoke(args=["sync"])
    assert result.exit_code == 0, result.output
    assert "1 statuses read, 1 moved, 0 failed" in result.output
    assert stored(app, merchant_id).status == "PENDING_REVIEW"
