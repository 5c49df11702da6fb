"""Fixtures of the sandbox's payments API tests: RSA keys, the sandbox with two merchants on
loopback, clients."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

import pytest

from tests.sandbox.payments.support import (
    client,
    clock,
    gateway_keys,
    http,
    make_client,
    merchant_keys,
    other_merchant_keys,
    parent_keys,
    sandbox,
    served_payments,
    signer,
    stranger_keys,
)
from tests.support.sandbox import answer_dialect_fixture

#: The support modules' fixtures this folder's tests use.
__all__ = [
    "client", "clock", "gateway_keys", "http", "make_client", "merchant_keys",
    "other_merchant_keys", "parent_keys", "sandbox", "served_payments", "signer",
    "stranger_keys",
]


#: ``answer_dialect`` over this folder's ``sandbox`` (tests/support/sandbox.py).
answer_dialect = answer_dialect_fixture("sandbox")


# ---------------------------------------------------------------- the hosted page


# ---------------------------------------------------------------- a server that drops POSTs


@pytest.fixture(scope="session")
def dropping_url() -> Iterator[str]:
    """A loopback server that reads each request, then closes without answering."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.2)
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(1.0)
                with contextlib.suppress(TimeoutError):
                    conn.recv(65536)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()


