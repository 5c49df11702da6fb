"""Every request gets an id: returned in X-Request-ID, shown on error pages, written in each log
line and sent to the gateway, so one id from a support ticket finds the whole story.

A client's X-Request-ID is believed only behind a trusted proxy (TRUSTED_PROXIES), which sets
it; otherwise anyone could choose the id their request is logged under.
"""

from __future__ import annotations

import re
import uuid

from flask import Response, g, request

from portal.core.config import current_settings
from portal.gateway.tracing import REQUEST_ID_HEADER, request_id

#: What an id from a proxy may look like: no spaces, quotes or line breaks to forge log lines.
ACCEPTED_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
#: Where (in ``g``) the context variable's reset token waits for the teardown.
CONTEXT_KEY = "request_id_context"


def incoming_id() -> str:
    """The proxy's id when a trusted proxy sent a well-formed one, else a new random id."""
    offered = request.headers.get(REQUEST_ID_HEADER, "")
    if current_settings().trusted_proxies > 0 and ACCEPTED_ID.fullmatch(offered):
        return offered
    return uuid.uuid4().hex


def start_request() -> None:
    """Before each request: choose its id and make it current for logs and gateway calls."""
    g.request_id = incoming_id()
    setattr(g, CONTEXT_KEY, request_id.set(g.request_id))


def return_request_id(response: Response) -> Response:
    """After each request: tell the client which id its request had."""
    if "request_id" in g:
        response.headers[REQUEST_ID_HEADER] = g.request_id
    return response


def for_templates() -> dict[str, str]:
    """Every template's ``request_id``: the error pages ask to quote it."""
    return {"request_id": request_id.get()}


def end_request(_error: BaseException | None) -> None:
    """When the request is torn down: the thread serves the next one without this id."""
    token = g.pop(CONTEXT_KEY, None)
    if token is not None:
        request_id.reset(token)
