"""Text someone else wrote (the gateway's pendency reasons), quoted so that nothing in it works
as a link: not on a page, not in an email a mail program reads.

Mail programs turn ``https://...``, ``www.example.com`` and often a bare ``example.com`` into
links, whatever the sender meant. Addresses are "defanged" as security teams quote them: the
scheme ``hxxps://``, each dot of a host name or IP address ``[.]``. Still readable, never
followed by a click.
"""

from __future__ import annotations

import re

#: A URL scheme before ``//`` (``https://``, ``ftp://``).
_SCHEME = re.compile(r"\b([a-z][a-z0-9+.-]{0,15}):(?=//)", re.IGNORECASE)
#: A host name with a top-level domain of letters (``evil.example``, ``www.example.co.in``).
_HOST = re.compile(r"\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\b", re.IGNORECASE)
#: An IPv4 address.
_IPV4 = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")


def _scheme(match: re.Match[str]) -> str:
    name = match.group(1)
    if name.lower() in ("http", "https"):
        return name[0] + "xx" + name[3:] + ":"
    return name + "[:]"


def unlinked(text: str) -> str:
    """``text`` with every address in it defanged (``hxxps://example[.]com``), so no browser or
    mail program makes it a link."""
    text = _SCHEME.sub(_scheme, text)
    text = _HOST.sub(lambda match: match.group(0).replace(".", "[.]"), text)
    return _IPV4.sub(lambda match: match.group(0).replace(".", "[.]"), text)
