"""Webhooks out: the events partners' software is told of, written in the same transaction as
the change they report, and their signed deliveries, retried by the worker (not the gateway's
webhooks coming in: those are ``portal.features.webhooks``)."""
