"""The outbox: step sends queued while the gateway is unavailable, sent later exactly once.

The queue itself (:mod:`portal.onboarding.queue`) belongs to the step sends that fill it;
``drain`` claims due items and sends each the way a step send goes; ``worker`` is the
background pass the sync runs.
"""
