"""A loopback gateway that answers every call with one canned status and body, and a payments
client pointed at it: each answer a source recorded is replayed through the client."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask, jsonify

from portal.gateway.payments.client import PaymentsClient
from portal.gateway.retry import RetryPolicy
from portal.gateway.transport import Timeouts
from tests.sandbox.payments.support import KID, MID
from tests.support.keys import KeyPair
from tests.support.servers import serve


@dataclass
class CannedGateway:
    """A loopback server answering every call with ``status`` and ``body``."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    #: The paths called, in order.
    calls: list[str] = field(default_factory=list)


@pytest.fixture
def canned(merchant_keys: KeyPair) -> Iterator[tuple[CannedGateway, PaymentsClient]]:
    """The canned gateway and a client pointed at it."""
    gateway = CannedGateway()
    app = Flask(__name__)

    @app.route("/<path:rest>", methods=["GET", "POST"])
    def any_call(rest: str):
        gateway.calls.append("/" + rest)
        return jsonify(gateway.body), gateway.status, gateway.headers

    with serve(app) as url:
        yield gateway, PaymentsClient(url, merchant_id=MID, kid=KID,
                                      private_key_pem=merchant_keys.private_pem,
                                      timeouts=Timeouts(connect=1.0, read=5.0),
                                      retry=RetryPolicy(attempts=1))
