"""CSRF protection, created once here and bound to each app by the factory."""

from __future__ import annotations

from flask_wtf import CSRFProtect

#: Every POST needs a CSRF token; views that take foreign POSTs (webhooks) use ``@csrf.exempt``.
csrf = CSRFProtect()
