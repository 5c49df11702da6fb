"""Step 8: the verification link, embedded for ops and for the sub-merchant via a signed link."""

from portal.verification.routes import bp

__all__ = ["bp"]
