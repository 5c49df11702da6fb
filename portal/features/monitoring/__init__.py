"""What an operator runs the portal with: health and readiness probes, the Prometheus scrape,
structured logs and gunicorn's (each request's id and counters are the web layer's:
``portal.web.request_ids``, ``portal.web.request_metrics``)."""
