"""The portal's HTTP request metrics and the registry /metrics serves (the gateway's and the
sign-ins' counters live beside what they count).

Under gunicorn every worker writes its numbers to files in PROMETHEUS_MULTIPROC_DIR (set up by
gunicorn.conf.py) and a scrape adds up all workers; without it (``flask run``, tests) the
process's own registry is served. Queue depths are read from the database at scrape time
(``portal.monitoring.queues``), so they are right whichever process answers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from flask import Response, g, request
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

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


class _ProcessMetrics(Collector):
    """This process's own registry, for a scrape outside multiprocess mode."""

    def collect(self) -> Iterable[Metric]:
        """Everything the default registry holds."""
        return REGISTRY.collect()


def scrape(*extra: Collector) -> bytes:
    """The text of one scrape: every process's metrics (or this one's) and ``extra``."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)
    else:
        registry.register(_ProcessMetrics())
    for collector in extra:
        registry.register(collector)
    return generate_latest(registry)
