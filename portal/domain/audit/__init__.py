"""The audit trail: ``service.record()`` an action beside the change it describes, with who did
it; ``trail`` reads the entries back for the audit page."""
