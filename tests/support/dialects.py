"""The suite's ``answer_dialect`` fixture, a plugin of ``tests/conftest.py``: a test that asks
for it runs once per answer dialect with the suite's ``sandbox`` speaking it (whichever fixture a
folder calls ``sandbox``; tests/support/sandbox.py says more)."""

from __future__ import annotations

from tests.support.sandbox import answer_dialect_fixture

answer_dialect = answer_dialect_fixture("sandbox")
