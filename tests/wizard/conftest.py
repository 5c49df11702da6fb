"""Fixtures of the wizard tests: a signed-in browser, merchants created through the pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.dialects import every_dialect_fixture
from tests.wizard.lossy import LossyGateway
from tests.wizard.support import browser, closed_port, new_merchant

#: The support modules' fixtures this folder's tests use.
__all__ = ["browser", "closed_port", "new_merchant"]

#: Every test here runs once per answer dialect of the sandbox (docs/gateway-contract.md, "Reading
#: answers").
every_answer_dialect = every_dialect_fixture()


@pytest.fixture
def lossy(sandbox) -> Iterator[LossyGateway]:
    """A gateway front that loses answers (see tests.wizard.lossy)."""
    with LossyGateway(sandbox.url) as gateway:
        yield gateway


