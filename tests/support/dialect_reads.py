"""Which tests depend on the sandbox's answer dialect: every ``speaks_docs`` the sandbox's
modules call is counted, so a test whose run in the contract's dialect never asked which dialect
the sandbox speaks is known to run alike in the docs' (its second run is skipped, saying so).

Every read of ``answerDialect`` in ``portal/sandbox`` goes through ``speaks_docs``
(``tests/sandbox/test_dialect_reads.py`` fails on one that does not), so a run that called it
never got an answer a dialect shapes. The proof is a file per test, in a folder shared by the
run's pytest-xdist workers: a docs run that starts before its contract run has finished simply
runs.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

import portal.sandbox.app  # noqa: F401 - loads every module of the sandbox
from portal.sandbox import dialect
from portal.sandbox.dialect import AnswerDialect

#: This run's id: pytest-xdist's, shared by its workers, else this process's.
RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
PROOFS = Path(tempfile.gettempdir()) / f"portal-dialect-free-{RUN_ID}"
#: The dialect's id among a test's parameter ids.
_DIALECT_ID = re.compile(r"(?<=[\[-])(" + "|".join(map(re.escape, AnswerDialect)) + r")(?=[\]-])")


class DialectReads:
    """How many times the sandbox asked which dialect it speaks since :meth:`restart`."""

    def __init__(self) -> None:
        self.count = 0
        self._original = dialect.speaks_docs

    def speaks_docs(self, value: str) -> bool:
        """``dialect.speaks_docs``, counted."""
        self.count += 1
        return self._original(value)

    def restart(self) -> None:
        """Count from zero."""
        self.count = 0

    def install(self) -> None:
        """Count the calls of every sandbox module that imported ``speaks_docs`` (and of those
        that import it later, from the patched module)."""
        for name, module in list(sys.modules.items()):
            if name.startswith("portal.sandbox") and \
                    getattr(module, "speaks_docs", None) is self._original:
                module.speaks_docs = self.speaks_docs  # type: ignore[attr-defined]


READS = DialectReads()
READS.install()


def proof_for(node: pytest.Item) -> Path:
    """Where the proof that ``node``'s test (either dialect's run) reads no dialect is kept."""
    sibling = _DIALECT_ID.sub("", node.nodeid, count=1)
    return PROOFS / hashlib.sha256(sibling.encode()).hexdigest()


def skip_if_proven(node: pytest.Item, dialect_name: str) -> None:
    """Skip the docs run of a test whose contract run read no dialect."""
    if dialect_name == AnswerDialect.DOCS and proof_for(node).exists():
        pytest.skip("its run in the contract's dialect never read the dialect: it runs alike")


def keep_proof(node: pytest.Item, dialect_name: str) -> None:
    """After a contract run that read no dialect, note it for the docs run."""
    if dialect_name == AnswerDialect.CONTRACT and READS.count == 0:
        PROOFS.mkdir(exist_ok=True)
        proof_for(node).touch()
