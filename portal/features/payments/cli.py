"""``flask payments ...``: keep the local sandbox in step with the portal's payment keys."""

from __future__ import annotations

import click
from flask.cli import AppGroup
from sqlalchemy import select

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models import PaymentCredentials
from portal.domain.payments.credentials import portfolio_key, register_with_sandbox, signer_of
from portal.domain.payments.portfolio import register_portfolio

payments_cli = AppGroup("payments", help="Payments housekeeping.")


@payments_cli.command("register-sandbox-keys")
def register_sandbox_keys() -> None:
    """Register every stored public key with the sandbox (it forgets them when it restarts)."""
    settings = current_settings()
    if not settings.gateway_is_sandbox:
        raise click.ClickException("GATEWAY_IS_SANDBOX is false: register keys with the gateway.")
    stored = db.session.scalars(select(PaymentCredentials)).all()
    failed = [signer_of(c).kid for c in stored if not register_with_sandbox(settings, c)]
    portfolio = portfolio_key()
    if portfolio is not None and not register_portfolio(settings, portfolio):
        failed.append(portfolio.kid)
    total = len(stored) + (portfolio is not None)
    click.echo(f"Registered {total - len(failed)} of {total} payment keys with the sandbox.")
    if failed:
        raise click.ClickException("Not registered: " + ", ".join(failed))
