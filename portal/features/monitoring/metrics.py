"""The registry /metrics serves: the portal's counters, each kept beside what it counts (the
requests' in ``portal.web.request_metrics``, the gateway's and the sign-ins' in their packages).

Under gunicorn every worker writes its numbers to files in PROMETHEUS_MULTIPROC_DIR (set up by
gunicorn.conf.py) and a scrape adds up all workers; without it (``flask run``, tests) the
process's own registry is served. Queue depths are read from the database at scrape time
(``portal.features.monitoring.queues``), so they are right whichever process answers.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector


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
