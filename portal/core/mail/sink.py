"""A local SMTP server that keeps every message it receives as a ``.eml`` file.

``python -m portal.core.mail.sink --port 8025 --folder instance/mail`` runs it for development
(``make run`` starts it); tests run ``MailSink`` on a free loopback port and read the files.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import secrets
import socket
import threading
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope

from portal.core import clock


@dataclass
class FolderHandler:
    """aiosmtpd handler: write each message to ``folder`` as ``<time>-<random>.eml``.

    Line ends become the platform's ``\n``, so the files read well in any editor.
    """

    folder: Path

    async def handle_DATA(self, server: Any, session: Any, envelope: Envelope) -> str:
        """Store the message (aiosmtpd calls this once per message)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"{clock.system_now():%Y%m%dT%H%M%S%f}-{secrets.token_hex(4)}.eml"
        content = envelope.original_content or b""
        (self.folder / name).write_bytes(content.replace(b"\r\n", b"\n"))
        return "250 Message accepted for delivery"


def read_folder(folder: Path) -> list[EmailMessage]:
    """Every message in ``folder``, oldest first."""
    if not folder.is_dir():
        return []
    return [email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[misc]
            for path in sorted(folder.glob("*.eml"))]


class MailSink:
    """The sink on a loopback port, started and stopped around a block (tests, ``main``)."""

    def __init__(self, folder: Path, host: str = "127.0.0.1", port: int = 0) -> None:
        self.folder = folder
        self.handler = FolderHandler(folder)
        self._controller = Controller(self.handler, hostname=host, port=port or _free_port(host))

    @property
    def host(self) -> str:
        """The address the sink listens on."""
        return self._controller.hostname

    @property
    def port(self) -> int:
        """The port the sink listens on."""
        return self._controller.port

    def messages(self) -> list[EmailMessage]:
        """The messages received so far, oldest first."""
        return read_folder(self.folder)

    def __enter__(self) -> MailSink:
        self._controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._controller.stop()


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def main(argv: list[str] | None = None) -> None:
    """Command line: run the sink until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m portal.core.mail.sink", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8025)
    parser.add_argument("--folder", type=Path, default=Path("instance/mail"))
    args = parser.parse_args(argv)
    with MailSink(args.folder, args.host, args.port) as sink:
        print(f"Mail sink on {sink.host}:{sink.port}, writing to {args.folder.resolve()}/",
              flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
