"""The webhook and sync tests share fixtures with the verification and wizard tests."""

from tests.verification.conftest import portal_server
from tests.wizard.conftest import closed_port

__all__ = ["closed_port", "portal_server"]
