"""The audit trail: ``record()`` an action beside the change it describes."""

from portal.audit.service import record

__all__ = ["record"]
