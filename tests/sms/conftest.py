"""Fixtures of the text message tests: a loopback port nothing listens on."""

from __future__ import annotations

from tests.wizard.support import closed_port

__all__ = ["closed_port"]
