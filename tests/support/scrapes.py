"""Reading a /metrics answer in tests (tests/monitoring, and tests/web for the requests'
counters)."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def sample(text: str, name: str, **labels: str) -> float:
    """The value of sample ``name`` with exactly ``labels`` in a scrape's text (0 if absent)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return found.value
    return 0.0


def scrape(client) -> str:
    """The metrics text, asked from loopback."""
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.content_type.startswith("text/plain")
    return answer.get_data(as_text=True)
