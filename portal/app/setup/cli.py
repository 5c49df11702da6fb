"""``flask setup gateway`` asks for, checks and writes the settings the real gateway needs;
``flask setup check`` runs the go-live checks at any time (the admins' checklist page runs the
same). Every question is also a flag, so a script can answer them all."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parseaddr
from functools import partial
from typing import Any

import click
from dotenv import dotenv_values
from flask.cli import AppGroup

from portal.app.devsetup import local_secrets
from portal.app.setup import answers
from portal.app.setup.env_file import write_settings
from portal.core.config import ConfigError, Settings, current_settings, env_files, settings_from_env
from portal.domain.golive.checks import go_live_checks
from portal.domain.golive.whitelist import whitelist

setup_cli = AppGroup("setup", help="Switch the portal to the real gateway and check it.")

#: What switching to the real gateway always sets: production, no sandbox shortcuts, and no
#: webhook digest (the real gateway documents none; GATEWAY_WEBHOOK_SOURCES guards instead).
REAL_GATEWAY = {"PORTAL_ENV": "production", "GATEWAY_IS_SANDBOX": "false",
                "GATEWAY_PLAIN_JSON": "false", "GATEWAY_WEBHOOK_SECRETS": ""}


@dataclass(frozen=True)
class Question:
    """One setting ``setup gateway`` asks for: its variable, question, check and fallback."""

    variable: str
    question: str
    check: Callable[[str], str]
    fallback: str = ""
    hidden: bool = False

    @property
    def flag(self) -> str:
        """The command-line flag answering it: GATEWAY_API_KEY is --api-key."""
        return "--" + self.variable.removeprefix("GATEWAY_").lower().replace("_", "-")


QUESTIONS = (
    Question("GATEWAY_PARTNER_MID", "The partner's MID at the gateway", answers.partner_mid),
    Question("GATEWAY_API_KEY", "Partner API key", answers.api_key),
    Question("GATEWAY_API_SECRET", "Partner API secret", answers.api_secret, hidden=True),
    Question("GATEWAY_PUBLIC_KEY_FILE", "File of the gateway's public key (PEM)",
             answers.public_key_file),
    Question("GATEWAY_KEY_ID", "Key id (kid) of that key", answers.key_id),
    Question("GATEWAY_ONBOARDING_URL", "Onboarding API host",
             partial(answers.address, example="https://api.onboard.uat.payglocal.in")),
    Question("GATEWAY_PAYMENTS_URL", "Payments API host",
             partial(answers.address, example="https://api.uat.payglocal.in")),
    Question("GATEWAY_INITIATE_PATH", "Path of the payments initiate call",
             answers.initiate_path, "/gl/v1/payments/initiate/paycollect"),
    Question("GATEWAY_ORIGIN", "Origin of the gateway's verification page",
             partial(answers.origin, example="https://uat.dashboard.payglocal.in")),
    Question("GATEWAY_WEBHOOK_SOURCES", "Addresses the gateway's webhooks come from "
             "(comma-separated; empty: any)", answers.optional),
    Question("PORTAL_URL", "The portal's public address",
             partial(answers.address, example="https://onboarding.partner.example")),
    Question("MAIL_HOST", "SMTP server", answers.mail_host),
    Question("MAIL_PORT", "SMTP port", answers.mail_port, "587"),
    Question("MAIL_SECURITY", "SMTP security (none, starttls or ssl)", answers.mail_security,
             "starttls"),
    Question("MAIL_USERNAME", "SMTP user name (empty: no login)", answers.optional),
    Question("MAIL_PASSWORD", "SMTP password", answers.optional, hidden=True),
    Question("MAIL_FROM", "Sender of the portal's emails", answers.mail_from),
    Question("PARTNER_NAME", "The partner's name, as merchants read it", answers.partner_name),
)


def _written() -> dict[str, str]:
    """The env file's current values (empty when there is none yet)."""
    path = env_files()[0]
    return {k: v or "" for k, v in dotenv_values(path).items()} if path.is_file() else {}


def _answered(question: Question) -> Callable[[click.Context, click.Parameter, Any], str]:
    def checked(_ctx: click.Context, _param: click.Parameter, value: Any) -> str:
        try:
            return question.check("" if value is None else str(value))
        except ValueError as exc:
            raise click.BadParameter(str(exc)[:1].upper() + str(exc)[1:] + ".") from None
    return checked


class _QuestionOption(click.Option):
    """A question's option: its prompt shows the env file's value, its help says so."""

    def get_help_extra(self, ctx: click.Context) -> Any:
        """The help's extras, the default named rather than shown as "(dynamic)"."""
        extra = super().get_help_extra(ctx)
        if "default" in extra:
            extra["default"] = "the env file's value, if any"
        return extra


def _asked(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` with one prompting option per question, defaulting to the file's value."""
    for question in reversed(QUESTIONS):
        command = click.option(
            question.flag, question.variable, prompt=question.question,
            hide_input=question.hidden, show_default=not question.hidden, cls=_QuestionOption,
            default=lambda q=question: _written().get(q.variable) or q.fallback,
            callback=_answered(question), help=f"{question.question} ({question.variable}).",
        )(command)
    return command


def print_whitelist(settings: Settings) -> None:
    """What the partner sends the gateway to whitelist."""
    click.echo("Send the gateway, to whitelist:")
    for entry in whitelist(settings):
        click.echo(f"  {entry.what}: {entry.value}")


@setup_cli.command("gateway", with_appcontext=False)
@_asked
def setup_gateway(**answered: str) -> None:
    """Ask for, check and write the settings the real gateway needs (UAT or production)."""
    path = env_files()[0]
    written = _written()
    values = {**answered, **REAL_GATEWAY}
    values |= {k: v for k, v in local_secrets().items() if not written.get(k)}
    try:
        settings = settings_from_env({**written, **values}).check()
    except ConfigError as exc:
        raise click.ClickException(f"Nothing was written: {exc}") from None
    write_settings(path, values)
    click.echo(f"Written to {path}.")
    print_whitelist(settings)
    click.echo("Then restart the portal and run: flask --app app setup check "
               "(or open Go-live checklist as an admin).")


@setup_cli.command("check")
@click.option("--mail-to", default=None, metavar="EMAIL",
              help="Who receives the test email (default: MAIL_FROM's address).")
def setup_check(mail_to: str | None) -> None:
    """Run the go-live checks now; exit status 1 while any is not passed."""
    settings = current_settings()
    checks = go_live_checks(settings, mail_to or parseaddr(settings.mail_from)[1])
    for check in checks:
        click.echo(f"{'[ok]  ' if check.passed else '[todo]'} {check.title}: {check.says}")
    print_whitelist(settings)
    if not all(check.passed for check in checks):
        sys.exit(1)
