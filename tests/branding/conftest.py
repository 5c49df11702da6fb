"""Branding tests: a merchant waiting for its verification, mail to a loopback sink, images."""

from __future__ import annotations

import struct
import zlib

import pytest

from portal.core.config import Settings
from tests.support.mail import mail_sink, mailing
from tests.verification.conftest import onboard

__all__ = ["mail_sink"]
PARTNER = "Acme Payments"


def tiny_png() -> bytes:
    """A real 1x1 PNG: the magic bytes the upload is judged by, and a picture a browser draws."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x1f\x4f\xbf")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


@pytest.fixture
def settings(settings: Settings, mail_sink) -> Settings:
    """The suite's settings, PARTNER_NAME set and mailing to the loopback sink."""
    return mailing(settings, mail_sink).with_changes(partner_name=PARTNER)


@pytest.fixture
def merchant_id(app, portal_clock) -> int:
    """A merchant at PENDING_VERIFICATION."""
    return onboard(app)
