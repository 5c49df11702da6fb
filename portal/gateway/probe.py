"""Is the gateway there? One short request for the readiness check; any HTTP answer counts."""

from __future__ import annotations

import requests


def gateway_answers(base_url: str, timeout: float) -> bool:
    """True when ``base_url`` gives any HTTP answer within ``timeout`` seconds (connect and read
    each); a refused connection, a timeout or a broken answer is False."""
    try:
        requests.get(base_url, timeout=(timeout, timeout), allow_redirects=False).close()
    except requests.RequestException:
        return False
    return True
