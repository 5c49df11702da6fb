"""The go-live checks: each one asks the real thing (the gateway, the SMTP server) and says, in
plain words, what passed or what to do."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from portal.core.clients import onboarding_client
from portal.core.config import Settings
from portal.core.mail.sender import MailError, compose, send
from portal.domain.branding import service as branding
from portal.domain.golive.whitelist import webhook_url
from portal.gateway.errors import GatewayError, GatewayUnavailable, NotFound, Unauthorized
from portal.gateway.onboarding.client import OnboardingClient

#: PARTNER_NAME's default: merchants and customers would read it on their pages.
DEFAULT_PARTNER_NAME = "Your payments partner"


@dataclass(frozen=True)
class Check:
    """One item of the checklist: passed, and the sentence that says so or what to do."""

    key: str
    title: str
    passed: bool
    says: str


def gateway_answers_as_gateway(client: OnboardingClient) -> Check:
    """A signed status read of an id nobody created: the gateway says "not found" only when it
    took the key, the secret and the signature."""
    title = "The gateway takes the partner key and signature"
    try:
        client.get_status(f"go-live-check-{secrets.token_hex(6)}")
    except NotFound:
        return Check("gateway", title, True, "A signed status read of an unknown id was "
                     "answered \"not found\", as the gateway answers it.")
    except Unauthorized:
        return Check("gateway", title, False, "The gateway refused the API key or secret: "
                     "check GATEWAY_API_KEY and GATEWAY_API_SECRET against the partner dashboard.")
    except GatewayUnavailable:
        return Check("gateway", title, False, "The gateway could not be reached: check "
                     "GATEWAY_ONBOARDING_URL and that this host may connect to it.")
    except GatewayError as exc:
        return Check("gateway", title, False, f"The gateway answered unexpectedly ({exc}): "
                     "check GATEWAY_ONBOARDING_URL names the onboarding API.")
    return Check("gateway", title, False, "The gateway answered a record for an id nobody "
                 "created: GATEWAY_ONBOARDING_URL may not name the gateway.")


def smtp_takes_mail(settings: Settings, to: str) -> Check:
    """The SMTP server accepts a test message to ``to``."""
    title = "The mail server accepts the portal's email"
    try:
        send(settings, compose(settings, to, "Go-live check: test email",
                               "The portal can send email through this server."))
    except MailError as exc:
        return Check("smtp", title, False, f"{exc} Check MAIL_HOST, MAIL_PORT, MAIL_SECURITY "
                     "and the login (MAIL_USERNAME, MAIL_PASSWORD).")
    return Check("smtp", title, True, f"A test email to {to} was accepted by "
                 f"{settings.mail_host}:{settings.mail_port}.")


def https_in_front(settings: Settings) -> Check:
    """PORTAL_URL is HTTPS and a TLS-terminating proxy is declared (TRUSTED_PROXIES)."""
    title = "HTTPS is in front of the portal"
    if not settings.portal_url.startswith("https://"):
        return Check("https", title, False, "PORTAL_URL is not an https:// address: the "
                     "gateway frames and calls back HTTPS pages only. Put a TLS-terminating "
                     "proxy in front and set PORTAL_URL to its https:// address.")
    if settings.trusted_proxies < 1:
        return Check("https", title, False, "PORTAL_URL is https:// but TRUSTED_PROXIES is 0, "
                     "so the portal cannot tell its requests came over HTTPS: set it to the "
                     "number of proxies in front (see \"Behind a TLS-terminating proxy\").")
    return Check("https", title, True, f"PORTAL_URL is {settings.portal_url}, behind a "
                 f"TLS-terminating proxy (TRUSTED_PROXIES={settings.trusted_proxies}).")


def webhook_registered(settings: Settings, client: OnboardingClient) -> Check:
    """The gateway lists this portal's webhook URL under GATEWAY_PARTNER_MID."""
    title = "The onboarding webhook is registered"
    url = webhook_url(settings)
    if not settings.partner_mid:
        return Check("webhook", title, False, "GATEWAY_PARTNER_MID is not set: run "
                     "flask --app app setup gateway.")
    try:
        listed = [hook.webhookUrl for hook in client.list_webhooks(settings.partner_mid).webhooks]
    except GatewayError as exc:
        return Check("webhook", title, False, f"The gateway's webhook list could not be read "
                     f"({exc}).")
    if url in listed:
        return Check("webhook", title, True, f"The gateway sends onboarding events to {url}.")
    return Check("webhook", title, False, f"{url} is not registered: register it on the "
                 f"Go-live checklist page or with flask --app app gateway webhooks register "
                 f"{url}.")


def is_default_name(name: str) -> bool:
    """Whether ``name`` is the placeholder, not a partner's name."""
    return name.strip() in ("", DEFAULT_PARTNER_NAME)


def merchants_read_the_default(settings: Settings) -> bool:
    """Whether merchants and customers read the placeholder as the partner's name: no display
    name on the Branding page, and PARTNER_NAME left at its default."""
    return is_default_name(branding.current(settings).display_name)


def partner_named(settings: Settings) -> Check:
    """PARTNER_NAME is the partner's, not the default merchants would read."""
    title = "Merchants read the partner's name"
    if is_default_name(settings.partner_name):
        return Check("partner", title, False, f"PARTNER_NAME is still \"{DEFAULT_PARTNER_NAME}\""
                     ": set it to the name merchants know you by.")
    return Check("partner", title, True, f"Merchants read \"{settings.partner_name}\".")


def go_live_checks(settings: Settings, mail_to: str) -> list[Check]:
    """Every check, in the checklist's order; ``mail_to`` receives the test email."""
    client = onboarding_client(settings)
    return [gateway_answers_as_gateway(client), smtp_takes_mail(settings, mail_to),
            https_in_front(settings), webhook_registered(settings, client),
            partner_named(settings)]
