"""Notices: the owner of a merchant is told when the gateway approves, rejects or asks for more
about it, reports a pendency, or when it is handed to them; in the portal at once, by email from
a worker (each at once, or a daily digest, as each user chooses)."""
