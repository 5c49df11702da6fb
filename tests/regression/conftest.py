"""Fixtures of the SQL-count guards: a statement counter around one request."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench.measure import statements


@pytest.fixture
def count_get(app, client) -> Callable[[str], int]:
    """``count_get(path)``: the statements one GET of ``path`` runs (it must answer 200)."""

    def run(path: str) -> int:
        with statements(app) as seen:
            response = client.get(path)
        assert response.status_code == 200, path
        return len(seen)

    return run
