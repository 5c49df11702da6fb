"""Every request counted: by route, method and status, with its time (the counters live beside
what they count, as the gateway's and the sign-ins' do). ``portal.features.monitoring.metrics``
serves them with the rest at /metrics.
"""

from __future__ import annotations

import time

from flask import Response, g, request
from prometheus_client import Counter, Histogram

REQUESTS = Counter("portal_http_requests_total", "HTTP requests by route, method and status",
                   ["route", "method", "status"])
REQUEST_LATENCY = Histogram("portal_http_request_duration_seconds",
                            "Time to answer an HTTP request, by route, method and status",
                            ["route", "method", "status"],
                            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))

#: The route label of a request that matched no route (a 404 of any address, or a 405).
UNMATCHED = "unmatched"
#: The methods counted by name; any other (``XQWERTY /healthz``) is counted as OTHER_METHOD, so
#: made-up methods add no series.
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
OTHER_METHOD = "other"
STARTED_KEY = "metrics_started"


def start_timer() -> None:
    """Before each request: note when it started."""
    setattr(g, STARTED_KEY, time.perf_counter())


def observe_request(response: Response) -> Response:
    """After each request: count it under its route (the URL rule, never the raw path, so ids
    in URLs make no new series) with its method (a made-up one as OTHER_METHOD), status and
    time."""
    started = g.get(STARTED_KEY)
    if started is not None:
        rule = request.url_rule.rule if request.url_rule is not None else UNMATCHED
        method = request.method if request.method in KNOWN_METHODS else OTHER_METHOD
        labels = (rule, method, str(response.status_code))
        REQUESTS.labels(*labels).inc()
        REQUEST_LATENCY.labels(*labels).observe(time.perf_counter() - started)
    return response
