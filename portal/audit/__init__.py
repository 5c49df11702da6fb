"""The audit trail: ``record()`` an action beside the change it describes."""

from portal.audit.service import Actor, record

__all__ = ["Actor", "record"]
