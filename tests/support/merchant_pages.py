"""What tests of the merchant's own pages hand them: an in-app browser's user agent, a logo."""

from __future__ import annotations

import struct
import zlib

#: WhatsApp's in-app browser on Android, as its user agent reads.
WHATSAPP = ("Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/120.0.0.0 Mobile Safari/537.36 WhatsApp/2.23.20.76")


def tiny_png() -> bytes:
    """A real 1x1 PNG: the magic bytes the upload is judged by, and a picture a browser draws."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x1f\x4f\xbf")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


def read_in(app, merchant_id: int, code: str) -> None:
    """Ops set the merchant's pages (and emails) to language ``code``."""
    from portal.core.db import db
    from portal.core.models.merchant import Merchant
    from portal.domain.audit.service import Actor
    from portal.domain.onboarding import merchant_language

    with app.app_context():
        merchant_language.set_default(db.session.get(Merchant, merchant_id), code,
                                      Actor("ops@example.com"))
