"""The outbox: step sends queued while the gateway is unavailable, sent later exactly once.

``queue`` is the whole of it (queue a send, supersede it, its backoff, claim what is due) and
depends on the models alone; the drain sends the way a step send goes, so it sits beside the
sending (``portal.domain.onboarding.outbox.drain``), and the worker runs it on every pass.
"""
