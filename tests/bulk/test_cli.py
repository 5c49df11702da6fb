"""``flask merchants import``: the whole file is checked first, then every row is onboarded."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.core.db import db
from portal.core.models.merchant import CreateState, Merchant
from portal.gateway.retry import RetryPolicy
from portal.sandbox.common.fault_plans import Fault, FaultKind
from tests.bulk.support import EXAMPLE, creates, example_rows, received


def import_file(runner, path, *options: str):
    """Run the command as a person would."""
    return runner.invoke(args=["merchants", "import", str(path), *options])


def statuses(app) -> dict[str, str | None]:
    with app.app_context():
        return dict(db.session.execute(
            select(Merchant.external_onboarding_id, Merchant.status)).all())


def test_the_example_file_onboards_every_merchant_to_pending_verification(runner, app,
                                                                          sandbox):
    result = import_file(runner, EXAMPLE)
    assert result.exit_code == 0, result.output
    assert statuses(app) == {f"bulk-example-{n:03d}": "PENDING_VERIFICATION"
                             for n in range(1, 11)}
    assert ("Rows: 10; created 10, resumed 0, completed 10, awaiting documents 0, "
            "outcome unknown 0, failed 0.") \
        in result.output
    assert creates(sandbox) == 10
    documents = [r for r in received(sandbox, "PUT") if r.raw_path.endswith("/docs")]
    assert len(documents) == 9 * 2 + 2  # two Aadhaars per company, the LLP's and row 11's


def test_invalid_rows_are_reported_per_column_and_nothing_is_sent(runner, write_csv, sandbox):
    rows = example_rows()
    rows[1]["owner2_pan"] = "AAACB1234C"  # a company PAN for a person
    rows[1]["websiteUrl"] = "not a url"
    rows[2]["owner1_percentage"] = "90"  # 90 + 40 > 100
    rows[3]["products"] = "DOMESTIC_CARDS_UPI_AND_INB|GOLD_BARS"
    rows[4]["isOperatingSameAsRegistered"] = "perhaps"
    rows[5]["externalOnboardingId"] = rows[0]["externalOnboardingId"]
    rows[6]["contact_email"] = "asha at example"
    result = import_file(runner, write_csv(rows))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(line.startswith("row 3, owner2_pan: PAN holder type (4th letter) must be one "
                               "of P") for line in lines), result.output
    assert any(line.startswith("row 3, websiteUrl: ") for line in lines)
    assert "row 4, owner*_percentage: The owners' percentages add up to 130; at most 100" \
        in lines
    assert any(line.startswith("row 5, products: Unknown: GOLD_BARS") for line in lines)
    assert "row 6, isOperatingSameAsRegistered: Use true or false" in lines
    assert "row 7, externalOnboardingId: Repeats row 2's id" in lines
    assert any(line.startswith("row 8, contact_email: Not a valid email") for line in lines)
    assert "problems in 6 rows; nothing was sent" in result.output
    assert received(sandbox) == []


def test_missing_and_unacceptable_documents_are_reported(runner, write_csv, tmp_path, sandbox):
    rows = example_rows()
    rows[0]["owner1_aadhar"] = "docs/missing.pdf"
    (tmp_path / "docs" / "note.txt").write_text("not a document")
    rows[1]["owner2_aadhar"] = "docs/note.txt"
    result = import_file(runner, write_csv(rows))
    assert "row 2, owner1_aadhar: No such file: docs/missing.pdf (paths are relative to the " \
           "CSV)" in result.output
    assert "row 3, owner2_aadhar: Only PDF, JPEG and PNG files are accepted" in result.output
    assert received(sandbox) == []


def test_an_unknown_column_stops_the_whole_file(runner, write_csv, sandbox):
    rows = [{**row, "ownr1_name": ""} for row in example_rows()]
    result = import_file(runner, write_csv(rows), "--skip-invalid")
    assert result.exit_code == 1
    assert "row 1, ownr1_name: Unknown column" in result.output
    assert received(sandbox) == []


def test_skip_invalid_sends_the_valid_rows_only(runner, write_csv, app, sandbox):
    rows = example_rows()
    rows[0]["panNumber"] = "AAACA9999"
    result = import_file(runner, write_csv(rows), "--skip-invalid")
    assert result.exit_code == 0, result.output
    assert "row 2, panNumber: Not a valid PAN" in result.output
    assert "Rows: 9;" in result.output
    assert "bulk-example-001" not in statuses(app)


def test_dry_run_checks_and_sends_nothing(runner, sandbox):
    result = import_file(runner, EXAMPLE, "--dry-run")
    assert result.exit_code == 0
    assert "10 of 10 rows are valid; nothing was sent (dry run)." in result.output
    assert received(sandbox) == []


def test_a_rerun_resumes_without_creating_anyone_twice(runner, app, sandbox, monkeypatch):
    # every bank send fails after its retries, taken at once (the backoff is tested below)
    monkeypatch.setattr("portal.features.bulk.runner.BULK_RETRY",
                        RetryPolicy(attempts=5, base_delay=0, max_delay=0))
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="update_bank_details"))
    first = import_file(runner, EXAMPLE, "--concurrency", "3")
    assert first.exit_code == 1
    assert "failed 10" in first.output
    assert "row 2 (bulk-example-001): failed: Bank details: " in first.output
    sandbox.state.faults.clear()

    second = import_file(runner, EXAMPLE, "--concurrency", "3")
    assert second.exit_code == 0, second.output
    assert "created 0, resumed 10, completed 10" in second.output
    assert creates(sandbox) == 10
    businesses = [r for r in received(sandbox, "PUT") if r.raw_path.endswith("/business-details")]
    assert len(businesses) == 10  # sent once, in the first run
    assert set(statuses(app).values()) == {"PENDING_VERIFICATION"}


def test_a_lost_create_answer_is_reported_and_never_sent_again(runner, app, sandbox):
    sandbox.state.faults.set(Fault(FaultKind.LOST, operation="create_onboarding", times=1))
    first = import_file(runner, EXAMPLE, "--concurrency", "1")
    assert "outcome unknown 1, failed 0" in first.output
    assert "may or may not have been created" in first.output
    second = import_file(runner, EXAMPLE, "--concurrency", "1")
    assert "completed 9, awaiting documents 0, outcome unknown 1, failed 0" in second.output
    assert creates(sandbox) == 10  # the lost one reached the sandbox once, and only once
    with app.app_context():
        unknown = db.session.scalar(select(func.count(Merchant.id)).where(
            Merchant.create_state == CreateState.OUTCOME_UNKNOWN))
    assert unknown == 1


def test_503s_on_some_puts_are_retried_with_backoff(runner, app, sandbox):
    sandbox.state.faults.set(Fault(FaultKind.ERROR, operation="update_bank_details", times=2))
    result = import_file(runner, EXAMPLE)
    assert result.exit_code == 0, result.output
    assert sandbox.state.faults.count() == 2
    assert set(statuses(app).values()) == {"PENDING_VERIFICATION"}
