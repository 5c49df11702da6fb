"""The webhook and sync tests share the verification tests' fixtures, and run once per answer
dialect."""

from tests.support.dialects import every_dialect_fixture
from tests.verification.support import portal_server
from tests.wizard.support import closed_port

__all__ = ["closed_port", "portal_server"]

#: Every test here runs once per answer dialect of the sandbox (docs/gateway-contract.md, "Reading
#: answers").
every_answer_dialect = every_dialect_fixture()
