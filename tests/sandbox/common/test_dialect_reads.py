"""The proof behind skipping a docs run (tests/support/dialect_reads.py): the sandbox reads its
answer dialect only through ``speaks_docs``, which the suite counts, and only where the docs'
answer differs from the contract's."""

from __future__ import annotations

import ast
from pathlib import Path

import requests

import portal.sandbox
from portal.sandbox.common.dialect import AnswerDialect
from tests.sandbox.payloads import bank
from tests.sandbox.raw_calls import raw
from tests.support.dialect_reads import READS, proof_for
from tests.support.sandbox import speak

SANDBOX = Path(portal.sandbox.__file__).parent


def dialect_reads_outside_speaks_docs(tree: ast.AST) -> list[int]:
    """Lines reading ``.answerDialect`` other than as ``speaks_docs``'s argument."""
    inside = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "speaks_docs"
              for arg in node.args}
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "answerDialect"
            and isinstance(node.ctx, ast.Load) and id(node) not in inside]


def test_the_sandbox_reads_its_dialect_only_through_speaks_docs():
    stray = {str(path.relative_to(SANDBOX)): lines for path in SANDBOX.rglob("*.py")
             if (lines := dialect_reads_outside_speaks_docs(ast.parse(path.read_text())))}
    assert stray == {}


def test_the_check_sees_a_read_beside_speaks_docs():
    tree = ast.parse("a = speaks_docs(config.answerDialect)\nb = config.answerDialect == 'docs'")
    assert dialect_reads_outside_speaks_docs(tree) == [2]


def test_a_payments_answer_reads_the_dialect_and_its_clock_does_not(sandbox_server):
    READS.restart()
    requests.get(sandbox_server.url + "/gl/v1/payments/gl_o-x/status", timeout=5)
    assert READS.count > 0
    READS.restart()
    requests.get(sandbox_server.url + "/_sandbox/clock", timeout=5)
    assert READS.count == 0


def test_a_tests_two_dialect_runs_share_one_proof(tmp_path):
    def proof(dialect: str, step: str = "business") -> Path:
        return proof_for(tmp_path, f"tests/x.py::test_y[{dialect}-{step}-docs]")

    assert proof(AnswerDialect.CONTRACT) == proof(AnswerDialect.DOCS)
    assert proof(AnswerDialect.CONTRACT) != proof(AnswerDialect.CONTRACT, "owners")


def test_an_answer_no_dialect_changes_is_the_same_in_both_and_asks_none(sandbox_server, partner):
    seen = {}
    for dialect in AnswerDialect:  # the business categories read alike in both
        speak(sandbox_server, dialect)
        READS.restart()
        answer = raw(partner, "get_business_categories")
        seen[dialect] = (answer.json()["data"], READS.count)
    assert seen[AnswerDialect.CONTRACT] == seen[AnswerDialect.DOCS]
    assert seen[AnswerDialect.CONTRACT][1] == 0


def test_every_checklist_reads_otherwise_in_the_docs_and_asks_the_dialect(
        sandbox_server, partner, onboarding_id):
    seen = {}
    for dialect in AnswerDialect:  # a new record: PENDING in the contract's words, INCOMPLETE
        speak(sandbox_server, dialect)
        READS.restart()
        answer = raw(partner, "get_status", onboardingId=onboarding_id)
        seen[dialect] = (answer.json()["data"]["merchantOnboardingCheckListStatus"], READS.count)
    assert seen[AnswerDialect.CONTRACT][0]["businessDetails"] == "PENDING"
    assert seen[AnswerDialect.DOCS][0]["businessDetails"] == "INCOMPLETE"
    assert seen[AnswerDialect.CONTRACT][1] > 0


def test_an_answer_the_docs_shape_their_own_way_asks_the_dialect(
        sandbox_server, partner, onboarding_id):
    speak(sandbox_server, AnswerDialect.CONTRACT)
    READS.restart()
    raw(partner, "update_bank_details", bank(), onboardingId=onboarding_id)
    assert READS.count > 0
