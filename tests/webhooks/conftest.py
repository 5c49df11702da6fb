"""The webhook and sync tests share the verification tests' fixtures."""

from tests.verification.conftest import closed_port, portal_server

__all__ = ["closed_port", "portal_server"]
