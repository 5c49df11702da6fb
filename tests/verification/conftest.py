"""Fixtures of the verification, status and webhook tests: merchants brought to
PENDING_VERIFICATION through the services, the portal on a real port, the sandbox's page."""

from __future__ import annotations

from tests.support.dialects import every_dialect_fixture
from tests.verification.support import portal_server
from tests.wizard.support import closed_port

__all__ = ["closed_port", "portal_server"]

#: Every test here runs once per answer dialect of the sandbox (docs/gateway-contract.md, "Reading
#: answers").
every_answer_dialect = every_dialect_fixture()


