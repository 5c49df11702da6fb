"""Checks before a step is sent: what the gateway's review would raise later (a GSTIN of
another state or of another PAN, a PAN of the wrong holder type, an unknown bank), found on
the page instead."""
