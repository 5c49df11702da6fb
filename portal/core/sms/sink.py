"""The development sender: each text message becomes a file ``<time>-<random>.txt`` in a
folder (``instance/sms`` by default), its first line ``To: <number>``, then a blank line and
the words. Tests and developers read them there; nothing leaves the machine."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from portal.core import clock
from portal.core.sms.message import SmsError, TextMessage


@dataclass(frozen=True)
class FolderSink:
    """Write messages to ``folder``."""

    folder: str

    def send(self, message: TextMessage) -> None:
        """Keep ``message`` as a file; SmsError when the folder cannot be written."""
        folder = Path(self.folder)
        name = f"{clock.system_now():%Y%m%dT%H%M%S%f}-{secrets.token_hex(4)}.txt"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(f"To: {message.to}\n\n{message.text}\n", encoding="utf-8")
        except OSError as exc:
            raise SmsError("the message folder could not be written") from exc


def read_folder(folder: str | Path) -> list[TextMessage]:
    """Every message the sink wrote to ``folder``, oldest first."""
    path = Path(folder)
    if not path.is_dir():
        return []
    messages = []
    for file in sorted(path.glob("*.txt")):
        head, _blank, text = file.read_text(encoding="utf-8").partition("\n\n")
        messages.append(TextMessage(head.removeprefix("To: ").strip(), text.rstrip("\n")))
    return messages
