"""Is the portal ready for the real gateway? The go-live checks and what the gateway must
whitelist, for ``flask setup check`` and the admins' go-live checklist page."""
