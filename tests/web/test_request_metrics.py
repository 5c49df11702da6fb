"""Every request counted at /metrics under its route rule, its method and status, and no made-up
method or address adds a series."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from tests.support.scrapes import sample, scrape


def test_requests_are_counted_by_route_rule_not_raw_path(client):
    before = scrape(client)
    client.get("/merchants/4242")
    client.get("/no/such/page")
    after = scrape(client)
    route = {"route": "/merchants/<int:merchant_id>", "method": "GET", "status": "302"}
    assert (sample(after, "portal_http_requests_total", **route)
            - sample(before, "portal_http_requests_total", **route)) == 1
    unmatched = {"route": "unmatched", "method": "GET", "status": "404"}
    assert (sample(after, "portal_http_requests_total", **unmatched)
            - sample(before, "portal_http_requests_total", **unmatched)) == 1
    assert sample(after, "portal_http_request_duration_seconds_count", **route) >= 1
    assert "/merchants/4242" not in after


def series(text: str) -> set[tuple[str, tuple[tuple[str, str], ...]]]:
    """Every (sample name, labels) of a scrape."""
    return {(found.name, tuple(sorted(found.labels.items())))
            for family in text_string_to_metric_families(text) for found in family.samples}


def test_made_up_methods_and_addresses_add_no_series(client):
    client.open("/healthz", method="XQWERTY")  # the series a first request of each kind adds
    client.open("/no/such/page/0", method="M0")
    client.get("/no/such/page/0")
    before = scrape(client)
    for number in range(1, 40):
        client.open("/healthz", method=f"XQWERTY{number}")
        client.open(f"/no/such/page/{number}", method=f"M{number}")
        client.get(f"/no/such/page/{number}")
    after = scrape(client)
    requests_now = {labels for name, labels in series(after)
                    if name.startswith("portal_http_request")}
    requests_before = {labels for name, labels in series(before)
                       if name.startswith("portal_http_request")}
    assert requests_now - requests_before <= {
        labels for labels in requests_now if dict(labels).get("route") == "/metrics"}
    for status in ("405", "404"):
        other = {"route": "unmatched", "method": "other", "status": status}
        assert (sample(after, "portal_http_requests_total", **other)
                - sample(before, "portal_http_requests_total", **other)) == 39
    assert "XQWERTY" not in after and "/no/such/page" not in after
