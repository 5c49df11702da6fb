"""The team: admins add, (de)activate and re-role users; anyone may reset a forgotten password."""
