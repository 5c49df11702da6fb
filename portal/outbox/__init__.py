"""The outbox: step sends queued while the gateway is unavailable, sent later exactly once.

The queue (:mod:`portal.outbox.queue`) is filled by the step sends; the drain that empties it
sends the way a step send goes, so it sits beside the sending (``portal.onboarding.drain``).
"""
