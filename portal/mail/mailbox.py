"""The development mailbox: the messages the local sink kept, as a page can list them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from portal.mail.sink import read_folder

#: The newest messages shown; older ones stay in the folder.
SHOWN = 50


@dataclass(frozen=True)
class SentMail:
    """One message as the mailbox page shows it."""

    sent: str
    to: str
    subject: str
    body: str


def newest(folder: Path, limit: int = SHOWN) -> list[SentMail]:
    """The newest ``limit`` messages in ``folder``, newest first."""
    found = []
    for message in reversed(read_folder(folder)[-limit:]):
        part = message.get_body(("plain",))
        found.append(SentMail(str(message.get("Date", "")), str(message.get("To", "")),
                              str(message.get("Subject", "")).strip(),
                              part.get_content() if part is not None else ""))
    return found
