"""Outgoing email over SMTP, and the local sink development and tests send it to."""

from portal.mail.sender import MailError, compose, send

__all__ = ["MailError", "compose", "send"]
