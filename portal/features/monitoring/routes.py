"""The operator's addresses: /healthz, /readyz and /metrics, none behind a sign-in.

/metrics answers loopback, or anyone sending METRICS_TOKEN as a bearer token; to everyone else
it does not exist (404), so a scan learns nothing.
"""

from __future__ import annotations

import hmac
import logging
from ipaddress import ip_address

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue
from prometheus_client import CONTENT_TYPE_LATEST

from portal.core.config import current_settings
from portal.features.monitoring import metrics
from portal.features.monitoring.queues import QueueCollector
from portal.features.monitoring.readiness import OK, readiness
from portal.web.auth.access import public

bp = Blueprint("monitoring", __name__)
log = logging.getLogger("portal.monitoring")


@bp.get("/healthz")
@public
def healthz() -> ResponseReturnValue:
    """Liveness: the process answers."""
    return jsonify(status="ok")


@bp.get("/readyz")
@public
def readyz() -> ResponseReturnValue:
    """Readiness: 200 when every check passes, else 503 naming the failed checks in words."""
    checks = readiness(current_settings())
    failed = [name for name, outcome in checks.items() if outcome != OK]
    body = {"status": "not ready" if failed else "ready", "checks": checks, "failed": failed}
    if failed:
        log.warning("Not ready: %s", " ".join(checks[name] for name in failed))
    return jsonify(body), 503 if failed else 200


def is_loopback(address: str | None) -> bool:
    """True for 127.0.0.0/8 and ::1 (a Unix socket's empty address is not loopback)."""
    try:
        return ip_address(address or "").is_loopback
    except ValueError:
        return False


def may_read_metrics() -> bool:
    """Loopback clients, or the holder of METRICS_TOKEN (compared in constant time)."""
    if is_loopback(request.remote_addr):
        return True
    token = current_settings().metrics_token
    scheme, _, offered = request.headers.get("Authorization", "").partition(" ")
    return (bool(token) and scheme.lower() == "bearer"
            and hmac.compare_digest(offered.strip().encode(), token.encode()))


@bp.get("/metrics")
@public
def metrics_text() -> ResponseReturnValue:
    """The Prometheus scrape: every worker's numbers and the queues read from the database."""
    if not may_read_metrics():
        abort(404)
    body = metrics.scrape(QueueCollector())
    return body, 200, {"Content-Type": CONTENT_TYPE_LATEST}
