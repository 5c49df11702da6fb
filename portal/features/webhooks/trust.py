"""Whether a webhook delivery comes from the gateway (docs/gateway-contract.md, "Webhooks you
can trust").

Two ways to know: its ``x-gl-digest`` matches one of ``GATEWAY_WEBHOOK_SECRETS`` (the sandbox
signs; the real gateway documents no signature), or it comes from one of
``GATEWAY_WEBHOOK_SOURCES`` (the client address as the trusted-proxy rules read it). When a
list is set, a delivery that fails it is refused. An event shown neither way is unverified: it
may still make the portal read the status, and nothing it carries is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import ip_address, ip_network

from portal.core.config import Settings
from portal.core.models.webhook_event import Verification
from portal.gateway.onboarding.hmac import matching_secret


@dataclass(frozen=True)
class Judgement:
    """How a delivery was shown to be the gateway's, or why it is refused (an HTTP status and
    the answer's words)."""

    verification: Verification
    refused: int | None = None
    outcome: str = ""


def from_sources(address: str | None, sources: tuple[str, ...]) -> bool:
    """Whether ``address`` lies in one of the networks ``sources`` (an IPv4 address written
    as IPv6, ``::ffff:203.0.113.5``, as its IPv4 self)."""
    try:
        client = ip_address(address or "")
    except ValueError:
        return False
    mapped = getattr(client, "ipv4_mapped", None)
    return any((mapped or client) in ip_network(source) for source in sources)


def judge(settings: Settings, raw: bytes, digest: str | None, address: str | None) -> Judgement:
    """Check a delivery's source address and digest against the settings (constant time for
    the digest)."""
    sources = settings.webhook_sources
    from_a_source = bool(sources) and from_sources(address, sources)
    if sources and not from_a_source:
        return Judgement(Verification.NONE, 403, "not from a configured source address")
    secrets = settings.webhook_secrets
    if secrets and not matching_secret(secrets, raw, digest or ""):
        return Judgement(Verification.NONE, 401, "bad digest")
    if secrets:
        return Judgement(Verification.DIGEST)
    return Judgement(Verification.SOURCE if from_a_source else Verification.NONE)
