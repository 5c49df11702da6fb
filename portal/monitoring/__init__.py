"""What an operator runs the portal with: health and readiness probes, Prometheus metrics,
request ids and structured logs (``routes.init_monitoring`` wires them into the app)."""
