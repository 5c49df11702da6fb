"""Payments search tests: payments written straight to the database (the search reads the
portal's own rows, so the sandbox's answer dialect does not matter: each test runs once)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def every_answer_dialect() -> str:
    """Once, in the suite's dialect (overrides the payments folder's twice)."""
    return "suite"


