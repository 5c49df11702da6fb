"""The suite's ``answer_dialect`` fixture, a plugin of ``tests/conftest.py``: a test that asks
for it runs once per answer dialect with the suite's ``sandbox`` speaking it (whichever fixture a
folder calls ``sandbox``; tests/support/sandbox.py says more)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.sandbox import answer_dialect_fixture

answer_dialect = answer_dialect_fixture("sandbox")


def every_dialect_fixture() -> Callable[..., str]:
    """An autouse fixture for a folder's conftest (``every_answer_dialect =
    every_dialect_fixture()``): every test of the folder runs once per answer dialect, the
    suite's ``sandbox`` speaking it; the value is the dialect's name."""

    @pytest.fixture(autouse=True, name="every_answer_dialect")
    def every_dialect(answer_dialect: str) -> str:
        """The test's run: the sandbox speaking ``answer_dialect``."""
        return answer_dialect

    return every_dialect
