"""The merchants list: search, filter by status, pagination; and one merchant's summary."""

from portal.merchants.routes import bp

__all__ = ["bp"]
