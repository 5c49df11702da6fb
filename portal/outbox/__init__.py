"""The outbox: step sends queued while the gateway is unavailable, sent later exactly once.

``queue`` stores and supersedes items (the onboarding service uses it); ``drain`` claims and
sends them through the same service; ``worker`` is the background pass the sync runs.
"""
