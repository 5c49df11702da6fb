"""A browser that leaves a page while a file of it is still being sent resets its connection:
the suite's loopback server (``tests.support.servers.serve``) still closes the file, so no
ResourceWarning fails whichever test the collector happens to be in."""

from __future__ import annotations

import gc
import socket
import struct
import sys
import threading
from pathlib import Path

import pytest
from flask import Flask, send_file

from tests.support.servers import serve

#: Requests sent and reset at once: enough that the server meets the reset while it drains
#: the connection after a file, which is where werkzeug's server skipped the close.
RESETS = 300
#: SO_LINGER on with no time: close() sends a reset instead of the usual goodbye.
RESET_ON_CLOSE = struct.pack("ii", 1, 0)


def reset_after_asking(port: int, path: str, wait_for_answer: bool) -> None:
    """Ask for ``path`` and reset the connection, at once or once the answer has begun."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        if wait_for_answer:
            connection.recv(1)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET_ON_CLOSE)


def test_a_file_whose_connection_is_reset_is_closed(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    stylesheet = tmp_path / "wizard.css"
    stylesheet.write_bytes(b"main { margin: 0 }\n" * 150)
    app = Flask(__name__)
    app.add_url_rule("/wizard.css", "stylesheet", lambda: send_file(stylesheet))
    unraisable: list[sys.UnraisableHookArgs] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    before = set(threading.enumerate())
    with serve(app) as url:
        port = int(url.rsplit(":", 1)[1])
        for n in range(RESETS):
            reset_after_asking(port, "/wizard.css", wait_for_answer=n % 2 == 1)
        handlers = set(threading.enumerate()) - before
    for handler in handlers:  # the server has stopped: only its requests' threads are left
        handler.join(timeout=10)
    gc.collect()
    assert [str(u.exc_value) for u in unraisable] == []
