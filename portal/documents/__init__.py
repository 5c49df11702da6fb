"""Documents (step 6): uploads checked by content, stored outside static/, sent one per call."""

from portal.documents.routes import bp

__all__ = ["bp"]
