"""Which tests depend on the sandbox's answer dialect: every ``speaks_docs`` the sandbox's
modules call is counted, so a test whose run in the contract's dialect never asked which dialect
the sandbox speaks is known to run alike in the docs' (its second run is skipped, saying so).

Every read of ``answerDialect`` in ``portal/sandbox`` goes through ``speaks_docs``
(``tests/sandbox/common/test_dialect_reads.py`` fails on one that does not), so a run that never
called it got no answer a dialect shapes. The proof is a file per test, in a folder the run's
pytest-xdist workers share (:func:`proofs`): a docs run that starts before its contract run has
finished simply runs.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import pytest

import portal.sandbox.app  # noqa: F401 - loads every module of the sandbox
from portal.sandbox.common import dialect
from portal.sandbox.common.dialect import AnswerDialect

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


def proofs(request: pytest.FixtureRequest) -> Path:
    """The run's folder of proofs: beside the pytest-xdist workers' own temporary folders (so
    shared by them, and cleaned up with them), else in this process's."""
    base = request.getfixturevalue("tmp_path_factory").getbasetemp()
    folder = (base.parent if hasattr(request.config, "workerinput") else base) / "dialect-proofs"
    folder.mkdir(exist_ok=True)
    return folder


def proof_for(folder: Path, nodeid: str) -> Path:
    """Where the proof that the test ``nodeid`` (either dialect's run) reads no dialect is kept."""
    return folder / hashlib.sha256(_DIALECT_ID.sub("", nodeid, count=1).encode()).hexdigest()


def skip_if_proven(proof: Path, dialect_name: str) -> None:
    """Skip the docs run of a test whose contract run read no dialect (``proof``)."""
    if dialect_name == AnswerDialect.DOCS and proof.exists():
        pytest.skip("its run in the contract's dialect never read the dialect: it runs alike")


def keep_proof(proof: Path, dialect_name: str) -> None:
    """After a contract run that read no dialect, note it (``proof``) for the docs run."""
    if dialect_name == AnswerDialect.CONTRACT and READS.count == 0:
        proof.touch()
