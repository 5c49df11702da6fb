"""A faithful local emulator of the gateway's onboarding and payments APIs, for rehearsal and tests.

Split like moto: state lives in resettable backends, HTTP parsing in blueprints, errors in one
place. Run it alone with ``python -m portal.sandbox --host 127.0.0.1 --port PORT --config FILE``.
"""
