"""The admins' go-live checklist: each check green or what to do, and what the gateway must
whitelist."""
