"""A faithful local emulator of the gateway's onboarding and payments APIs, for rehearsal and tests.

Split like moto, a subpackage per API it emulates (``onboarding``, ``payments``, the hosted
``verification`` page, onboarding ``webhooks``), each with resettable backends (state) and
blueprints (HTTP parsing); what they share sits at the top (HMAC auth, JSON body, errors, faults,
config, the ``/_sandbox/`` controls) and ``state.py`` holds everything in one place. Run it alone
with ``python -m portal.sandbox --host 127.0.0.1 --port PORT --config FILE``.
"""
