"""Send one email over SMTP with the configured server, security, credentials and timeout.

``smtplib`` from the standard library: every well-kept SMTP client wraps it, and the portal
sends a handful of plain-text messages, so nothing more is needed.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from portal.core import clock
from portal.core.config import Settings

log = logging.getLogger("portal.mail")


#: The header naming the portal that sent a message (its PORTAL_URL): the development mailbox
#: shows only its own portal's mail when several portals share a machine.
PORTAL_HEADER = "X-Portal-URL"


class MailError(RuntimeError):
    """The SMTP server could not be reached or refused the message."""


def compose(settings: Settings, to: str, subject: str, body: str) -> EmailMessage:
    """A plain-text message from the portal's sender to ``to``."""
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = to
    message["Subject"] = subject
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
        raise MailError("The email could not be sent; the mail server did not accept it.") from exc
    log.info("mail: sent %r", message["Subject"])
