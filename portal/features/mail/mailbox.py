"""The development mailbox: the messages the local sink kept, as a page can list them.

Only this portal's messages (those carrying its PORTAL_URL in ``X-Portal-URL``): another portal
on the same machine may share the sink's folder or port. Web addresses in a body are links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from portal.core.mail.sender import PORTAL_HEADER
from portal.core.mail.sink import read_folder

#: The newest messages shown; older ones stay in the folder.
SHOWN = 50
#: A web address in a message's text (up to the next space or closing bracket).
_ADDRESS = re.compile(r"https?://[^\s<>\"')\]]+")


@dataclass(frozen=True)
class SentMail:
    """One message as the mailbox page shows it."""

    sent: str
    to: str
    subject: str
    body: str

    @property
    def linked_body(self) -> Markup:
        """The body as HTML: its text escaped, its web addresses links."""
        parts, shown = [], 0
        for found in _ADDRESS.finditer(self.body):
            parts += [escape(self.body[shown:found.start()]),
                      Markup('<a href="{0}">{0}</a>').format(found.group())]
            shown = found.end()
        return Markup("").join([*parts, escape(self.body[shown:])])


def newest(folder: Path, portal_url: str, limit: int = SHOWN) -> list[SentMail]:
    """The newest ``limit`` messages of the portal at ``portal_url`` in ``folder``, newest
    first."""
    mine = [message for message in read_folder(folder)
            if str(message.get(PORTAL_HEADER, "")).strip() == portal_url]
    found = []
    for message in reversed(mine[-limit:]):
        part = message.get_body(("plain",))
        found.append(SentMail(str(message.get("Date", "")), str(message.get("To", "")),
                              str(message.get("Subject", "")).strip(),
                              part.get_content() if part is not None else ""))
    return found
