"""Accounts, sign-in and access control: the sign-in pages and sessions every page passes
through. Other features take ``login_required``, ``roles_required`` and ``public`` from
``portal.web.auth.access``, and the role groups from ``portal.web.auth.roles``."""
