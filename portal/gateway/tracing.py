"""The id of the request being served, sent to the gateway with each call so that a support
ticket can be followed from the portal's logs into the gateway's.

The web layer sets it for each request; the transport reads it. A context variable keeps the
gateway layer free of Flask, and each thread (gunicorn's, a worker's) sees only its own id.
"""

from __future__ import annotations

from contextvars import ContextVar

#: The header that carries the id, to the gateway and back to the browser.
REQUEST_ID_HEADER = "X-Request-ID"

#: The current request's id ("" outside a request).
request_id: ContextVar[str] = ContextVar("request_id", default="")
