"""Reaching a URL of someone else's without letting it reach inside: the host is resolved and
every address checked public (loopback too when a setting allows it, for tests and the
sandbox), and the connection goes to the very address checked, so no second look-up a DNS
answer could change decides where it lands. Redirects are the caller's to check (or refuse).

Used by the website check (a merchant's pages) and the webhooks out (a partner's endpoint).
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import certifi
import urllib3


class Refused(Exception):
    """The address could not be reached, in words fit to show."""


def checked_addresses(host: str, port: int, allow_loopback: bool,
                      what: str = "website") -> list[str]:
    """Every address ``host`` resolves to, once each is checked public (loopback too with
    ``allow_loopback``); Refused when one is not, or the name does not resolve. ``what`` names
    the thing in the words (the website, the endpoint)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise Refused(f"The {what}'s name {host} could not be found.") from exc
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    for address in addresses:
        ip = ipaddress.ip_address(address)
        if ip.is_loopback and allow_loopback:
            continue
        if not ip.is_global or ip.is_multicast:
            raise Refused(f"The {what}'s address {host} is not a public one; the portal only "
                          f"reaches public {what}s.")
    return addresses


@dataclass(frozen=True)
class Pinned:
    """A connection pool to the one checked address of a URL, and what a request to it needs."""

    pool: urllib3.HTTPConnectionPool
    #: The path and query to request, and the Host header (the URL's own name and port).
    target: str
    host_header: str


def pinned_pool(url: str, allow_loopback: bool, timeout: urllib3.Timeout,
                what: str = "website") -> Pinned:
    """A pool to the checked address of ``url`` (https verified against the URL's own name),
    no retries; Refused for a URL that is not http(s) or an address that is not public."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(f"The {what}'s address must start with https:// (or http://).")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = checked_addresses(parts.hostname, port, allow_loopback, what)[0]
    if parts.scheme == "https":
        pool: urllib3.HTTPConnectionPool = urllib3.HTTPSConnectionPool(
            address, port, server_hostname=parts.hostname, assert_hostname=parts.hostname,
            cert_reqs=ssl.CERT_REQUIRED, ca_certs=certifi.where(), timeout=timeout, retries=False)
    else:
        pool = urllib3.HTTPConnectionPool(address, port, timeout=timeout, retries=False)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Pinned(pool, target, parts.netloc)
