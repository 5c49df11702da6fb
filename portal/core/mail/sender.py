"""Send one email over SMTP with the configured server, security, credentials and timeout.

``smtplib`` from the standard library: every well-kept SMTP client wraps it, and the portal
sends a handful of plain-text messages, so nothing more is needed.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from email.errors import MessageError, NonASCIILocalPartDefect
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime, make_msgid

from portal.core import clock
from portal.core.config import Settings
from portal.core.typed_text import one_line

log = logging.getLogger("portal.mail")


#: The header naming the portal that sent a message (its PORTAL_URL): the development mailbox
#: shows only its own portal's mail when several portals share a machine.
PORTAL_HEADER = "X-Portal-URL"


class MailError(RuntimeError):
    """The message was not sent: the SMTP server could not be reached or refused it, or
    (``UncomposableMail``) it could not be written. ``reason`` says which, as a clause."""

    reason = "the mail server did not accept it"

    def __init__(self, reason: str | None = None) -> None:
        self.reason = reason or self.reason
        super().__init__(f"The email could not be sent: {self.reason}.")


class UncomposableMail(MailError):
    """A message that cannot be written, such as one to an address holding a line break."""


def _mailbox(value: str, whose: str) -> Address:
    """The one address ``value`` names, its display name on one line; UncomposableMail naming
    ``whose`` it is when it names none or more."""
    try:
        header = default.header_factory("To", one_line(value))
        [address] = header.addresses
        defects = [d for d in header.defects if not isinstance(d, NonASCIILocalPartDefect)]
    except (ValueError, IndexError, MessageError):  # the parser raises each of them
        address, defects = None, []
    if address is None or defects or not address.username or not address.domain:
        raise UncomposableMail(f"{whose} is not a single email address")
    return Address(one_line(address.display_name), address.username, address.domain)


def compose(settings: Settings, to: str, subject: str, body: str,
            sender_name: str = "") -> EmailMessage:
    """A plain-text message from the portal's sender to ``to`` (MAIL_FROM's address under
    ``sender_name`` when given: the partner's, on what merchants receive): every header on one
    line (``one_line``), whatever the names and subjects hold; UncomposableMail when an address
    is not one."""
    message = EmailMessage()
    sender = _mailbox(settings.mail_from, "the sender address (MAIL_FROM)")
    if sender_name:
        sender = Address(one_line(sender_name), sender.username, sender.domain)
    message["From"] = sender
    message["To"] = _mailbox(to, "the recipient's address")
    message["Subject"] = one_line(subject)
    message["Date"] = format_datetime(clock.utcnow())
    message["Message-ID"] = make_msgid(domain="portal.localhost")
    message[PORTAL_HEADER] = settings.portal_url
    message.set_content(body)
    return message


def _connect(settings: Settings) -> smtplib.SMTP:
    if settings.mail_security == "ssl":
        return smtplib.SMTP_SSL(settings.mail_host, settings.mail_port,
                                timeout=settings.mail_timeout,
                                context=ssl.create_default_context())
    connection = smtplib.SMTP(settings.mail_host, settings.mail_port,
                              timeout=settings.mail_timeout)
    if settings.mail_security == "starttls":
        try:
            connection.starttls(context=ssl.create_default_context())
        except BaseException:
            connection.close()
            raise
    return connection


def send(settings: Settings, message: EmailMessage) -> None:
    """Deliver ``message`` to the SMTP server, or raise MailError (the body is never logged)."""
    try:
        with _connect(settings) as connection:
            if settings.mail_username:
                connection.login(settings.mail_username, settings.mail_password)
            connection.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        log.warning("mail: sending to the SMTP server %s:%s failed: %s",
                    settings.mail_host, settings.mail_port, type(exc).__name__)
        raise MailError() from exc
    log.info("mail: sent %r", message["Subject"])
