"""A gateway front that loses answers: the connection closes before any reply.

With ``forward`` on, the request first reaches the real (sandbox) gateway, so it lands there
although the caller never hears back: the "create probably landed" case. With it off, the
request goes nowhere.
"""

from __future__ import annotations

import socketserver
import threading

import requests

_HOP_HEADERS = {"host", "content-length", "connection", "accept-encoding"}


class LossyGateway:
    """Serve on loopback; read each request, maybe forward it, then hang up without answering."""

    def __init__(self, upstream: str, forward: bool = True) -> None:
        self.upstream = upstream
        self.forward = forward
        self.received: list[str] = []
        outer = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                outer._handle(self.rfile)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> LossyGateway:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _handle(self, rfile) -> None:
        method, path, _version = rfile.readline().decode("latin-1").split(" ", 2)
        headers: dict[str, str] = {}
        while (line := rfile.readline().decode("latin-1").strip()):
            name, value = line.split(":", 1)
            headers[name.strip()] = value.strip()
        length = int(next((v for k, v in headers.items() if k.lower() == "content-length"), 0))
        body = rfile.read(length) if length else b""
        self.received.append(f"{method} {path}")
        if self.forward:
            kept = {k: v for k, v in headers.items() if k.lower() not in _HOP_HEADERS}
            requests.request(method, self.upstream + path, data=body, headers=kept, timeout=5)
