"""Each go-live check against the real things: the sandbox answering as the gateway does, an
SMTP server on loopback."""

from __future__ import annotations

from portal.core.clients import onboarding_client
from portal.domain.golive.checks import (
    DEFAULT_PARTNER_NAME,
    gateway_answers_as_gateway,
    go_live_checks,
    https_in_front,
    partner_named,
    smtp_takes_mail,
    webhook_registered,
)
from portal.domain.golive.whitelist import whitelist
from portal.gateway.retry import NO_RETRY
from tests.support.servers import free_port


def test_a_signed_read_of_an_unknown_id_passes_with_the_partners_key(settings):
    check = gateway_answers_as_gateway(onboarding_client(settings))
    assert check.passed, check.says
    assert "not found" in check.says


def test_a_wrong_secret_is_named(settings):
    wrong = settings.with_changes(api_secret="not-the-partner-secret-000")
    check = gateway_answers_as_gateway(onboarding_client(wrong))
    assert not check.passed
    assert "refused the API key or secret" in check.says


def test_an_unreachable_gateway_is_named(settings):
    away = settings.with_changes(onboarding_url=f"http://127.0.0.1:{free_port()}")
    check = gateway_answers_as_gateway(onboarding_client(away, retry=NO_RETRY))
    assert not check.passed
    assert "could not be reached" in check.says


def test_the_smtp_server_takes_the_test_mail(settings, mail_sink):
    check = smtp_takes_mail(settings, "admin@example.com")
    assert check.passed, check.says
    [message] = mail_sink.messages()
    assert (message["To"], message["Subject"]) == ("admin@example.com",
                                                  "Go-live check: test email")


def test_a_mail_server_that_is_not_there_is_named(settings):
    check = smtp_takes_mail(settings.with_changes(mail_port=free_port()), "admin@example.com")
    assert not check.passed
    assert "Check MAIL_HOST, MAIL_PORT" in check.says


def test_https_needs_the_address_and_the_proxy(settings):
    plain = settings.with_changes(portal_url="http://onboarding.partner.example")
    assert "is not an https:// address" in https_in_front(plain).says
    https = settings.with_changes(portal_url="https://onboarding.partner.example")
    assert "TRUSTED_PROXIES is 0" in https_in_front(https).says
    assert https_in_front(https.with_changes(trusted_proxies=1)).passed


def test_the_webhook_check_reads_the_gateways_list(settings):
    client = onboarding_client(settings)
    before = webhook_registered(settings, client)
    assert not before.passed and "https://portal.test/webhooks/onboarding is not registered" \
        in before.says
    client.register_webhook(settings.partner_mid, "https://portal.test/webhooks/onboarding")
    assert webhook_registered(settings, client).passed


def test_the_default_partner_name_is_to_do(settings):
    assert partner_named(settings).passed
    assert not partner_named(settings.with_changes(partner_name=DEFAULT_PARTNER_NAME)).passed


def test_every_check_runs_in_order(settings):
    checks = go_live_checks(settings, "admin@example.com")
    assert [c.key for c in checks] == ["gateway", "smtp", "https", "webhook", "partner"]
    assert [c.passed for c in checks] == [True, True, False, False, True]


def test_the_whitelist_is_the_portals_origin_callback_and_webhook(settings):
    entries = whitelist(settings.with_changes(portal_url="https://onboard.asha.example:8443/"))
    assert [e.value for e in entries] == [
        "https://onboard.asha.example:8443",
        "https://onboard.asha.example:8443/payments/callback",
        "https://onboard.asha.example:8443/webhooks/onboarding"]
