"""``flask gateway webhooks register|list|delete``: the partner's onboarding webhooks at the
gateway (``POST/GET /gcc/v2/partner/{mid}/webhook``, ``DELETE .../webhook/{webhookId}``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click
from flask.cli import AppGroup

from portal.core.clients import onboarding_client
from portal.core.config import current_settings
from portal.gateway.errors import GatewayError, ValidationFailed
from portal.gateway.onboarding.client import OnboardingClient

gateway_cli = AppGroup("gateway", help="Talk to the gateway's partner API.")
webhooks_cli = AppGroup("webhooks", help="Where the gateway sends onboarding events.")
gateway_cli.add_command(webhooks_cli)

_MID_OPTION = click.option("--mid", default=None, metavar="MID",
                           help="The partner's MID (default: GATEWAY_PARTNER_MID).")


Answer = TypeVar("Answer")


def _ask(mid: str | None, call: Callable[[OnboardingClient, str], Answer]) -> Answer:
    """``call(client, partner MID)``'s answer; the gateway's refusal as the command's error."""
    settings = current_settings()
    mid = mid or settings.partner_mid
    if not mid:
        raise click.UsageError("Give --mid or set GATEWAY_PARTNER_MID to the partner's MID.")
    try:
        return call(onboarding_client(settings), mid)
    except GatewayError as exc:
        raise _failed(exc) from None


def _failed(exc: GatewayError) -> click.ClickException:
    """The gateway's refusal in words, naming the field when it named one."""
    if isinstance(exc, ValidationFailed) and exc.field_errors:
        detail = "; ".join(f"{e.field}: {e.message}" for e in exc.field_errors)
        return click.ClickException(f"The gateway refused the webhook: {detail}")
    return click.ClickException(f"The gateway call failed: {exc}")


@webhooks_cli.command("register")
@click.argument("url")
@_MID_OPTION
def register(url: str, mid: str | None) -> None:
    """Have the gateway POST onboarding events to URL (registering it again is harmless)."""
    hook = _ask(mid, lambda client, partner: client.register_webhook(partner, url))
    click.echo(f"Registered {hook.webhookId}: {hook.webhookUrl}")


@webhooks_cli.command("list")
@_MID_OPTION
def list_webhooks(mid: str | None) -> None:
    """List the webhooks registered for the partner."""
    hooks = _ask(mid, lambda client, partner: client.list_webhooks(partner).webhooks)
    if not hooks:
        click.echo("No webhooks are registered.")
    for hook in hooks:
        click.echo(f"{hook.webhookId}\t{hook.webhookUrl}")


@webhooks_cli.command("delete")
@click.argument("webhook_id")
@_MID_OPTION
def delete(webhook_id: str, mid: str | None) -> None:
    """Stop sending events to the webhook WEBHOOK_ID."""
    hook = _ask(mid, lambda client, partner: client.delete_webhook(partner, webhook_id))
    click.echo(f"Deleted {hook.webhookId}: {hook.webhookUrl}")
