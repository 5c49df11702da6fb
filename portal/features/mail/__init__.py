"""Outgoing email over SMTP (``sender``), and the local sink development and tests send it to
(``sink``, read back by the development mailbox page)."""
