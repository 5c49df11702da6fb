"""The team: admins add, (de)activate and re-role users; anyone may reset a forgotten password."""

from portal.team.routes import bp

__all__ = ["bp"]
