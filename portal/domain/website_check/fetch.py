"""Fetching a merchant's web page without letting it reach inside: each host is resolved and
every address checked before connecting, the connection going to the very address checked
(``portal.core.public_address``), every redirect is checked again, robots.txt is honoured,
and time and size are limited. A clear user agent says who asks."""

from __future__ import annotations

import urllib.robotparser
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import urllib3

from portal.core.public_address import Refused, pinned_pool

USER_AGENT = "PartnerOnboardingPortal-WebsiteCheck/1.0 (checks the pages a payment gateway's " \
    "review asks for)"
#: The limits of one fetch: seconds to connect and to read, bytes read, redirects followed.
TIMEOUT = urllib3.Timeout(connect=5.0, read=10.0)
MAX_BYTES = 1_000_000
MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Fetched:
    """A page as fetched: where it ended after redirects, its status and its text."""

    url: str
    status: int
    text: str


def _get(url: str, allow_loopback: bool) -> urllib3.BaseHTTPResponse:
    """One GET of ``url`` to an address checked for it, no redirect followed."""
    pinned = pinned_pool(url, allow_loopback, TIMEOUT)
    try:
        return pinned.pool.urlopen("GET", pinned.target,
                                   headers={"Host": pinned.host_header, "User-Agent": USER_AGENT,
                                            "Accept": "text/html"},
                                   redirect=False, preload_content=False)
    except urllib3.exceptions.HTTPError as exc:
        raise Refused(f"The website could not be reached ({type(exc).__name__}).") from exc


def _read(response: urllib3.BaseHTTPResponse) -> str:
    """The body, at most MAX_BYTES; Refused when it is longer."""
    body = b""
    for chunk in response.stream(65536):
        body += chunk
        if len(body) > MAX_BYTES:
            response.release_conn()
            raise Refused(f"The page is larger than {MAX_BYTES:,} bytes; the check stops there.")
    return body.decode("utf-8", "replace")


def fetch_page(url: str, allow_loopback: bool = False) -> Fetched:
    """GET ``url``, following at most MAX_REDIRECTS redirects, each target checked again."""
    for _ in range(MAX_REDIRECTS + 1):
        response = _get(url, allow_loopback)
        location = response.headers.get("Location")
        if response.status in (301, 302, 303, 307, 308) and location:
            response.release_conn()
            url = urljoin(url, location)
            continue
        return Fetched(url, response.status, _read(response))
    raise Refused(f"The website redirects more than {MAX_REDIRECTS} times.")


def robots_allow(url: str, allow_loopback: bool = False) -> bool:
    """Whether the site's robots.txt lets the check's user agent fetch ``url`` (no robots.txt,
    or one that cannot be read: allowed)."""
    parts = urlsplit(url)
    try:
        robots = fetch_page(f"{parts.scheme}://{parts.netloc}/robots.txt", allow_loopback)
    except Refused:
        return True
    if robots.status != 200:
        return True
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(robots.text.splitlines())
    return parser.can_fetch(USER_AGENT, url)
