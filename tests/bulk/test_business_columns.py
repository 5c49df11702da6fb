"""The bulk file keeps its business columns while step 2 nests the addresses under ``address``
(contract revision 2); errors on nested paths still name the column the user typed into."""

from __future__ import annotations

import json

import pytest

from portal.features.bulk.columns import column_for
from portal.gateway import rules
from tests.bulk.support import example_rows, received

#: Row 10 of the example file: a company operating away from its registered address.
OPERATING_ROW = 9


def import_file(runner, path):
    return runner.invoke(args=["merchants", "import", str(path)])


def sent_bodies(sandbox, suffix: str) -> list[dict]:
    return [json.loads(r.body) for r in received(sandbox, "PUT") if r.raw_path.endswith(suffix)]


@pytest.mark.parametrize(("path", "column"), [
    ("address.businessRegisteredAddress.zipcode", "registered_zipcode"),
    ("address.businessOperatingAddress.stateCode", "operating_stateCode"),
    ("address.businessOperatingAddress", "operating_*"),
    ("address.isOperatingSameAsRegistered", "isOperatingSameAsRegistered"),
    ("registeredName", "registeredName"),
])
def test_nested_gateway_paths_name_the_columns(path, column):
    assert column_for("business", path) == column


def test_rows_send_the_addresses_nested(runner, write_csv, sandbox):
    rows = example_rows()
    result = import_file(runner, write_csv([rows[0], rows[OPERATING_ROW]]))
    assert result.exit_code == 0, result.output
    same, differs = sorted(sent_bodies(sandbox, "/business-details"),  # rows go in parallel
                           key=lambda body: not body["address"]["isOperatingSameAsRegistered"])
    assert set(same["address"]) == {"isOperatingSameAsRegistered", "businessRegisteredAddress"}
    assert same["address"]["isOperatingSameAsRegistered"] is True
    assert differs["address"]["isOperatingSameAsRegistered"] is False
    assert differs["address"]["businessOperatingAddress"]["streetAddress1"] == "7 Dock Road"
    assert "businessRegisteredAddress" not in differs  # nothing flat beside the other fields
    assert "completed 2" in result.output  # the operating address proof was asked and sent


def test_blank_registered_and_holder_names_are_left_out(runner, write_csv, sandbox):
    rows = example_rows()[:1]
    rows[0]["registeredName"] = ""
    rows[0]["accountHolderName"] = ""
    result = import_file(runner, write_csv(rows))
    assert result.exit_code == 0, result.output
    assert "registeredName" not in sent_bodies(sandbox, "/business-details")[0]
    assert "accountHolderName" not in sent_bodies(sandbox, "/bank-details")[0]


def test_errors_inside_the_addresses_are_reported_by_column(runner, write_csv, sandbox):
    rows = example_rows()
    rows[0]["registered_zipcode"] = "012345"
    rows[1]["isOperatingSameAsRegistered"] = "false"  # but no operating address given
    result = import_file(runner, write_csv(rows))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"row 2, registered_zipcode: {rules.PIN_CODE_MESSAGE}" in lines
    assert "row 3, operating_*: Required when the operating address differs" in lines
    assert received(sandbox) == []
