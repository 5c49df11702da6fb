"""``flask users ...``: create, list, (de)activate users, make one an admin and make sure an
admin exists.

Run on the server, these are the second factor of trust the team page cannot give the only
admin: an administrator made here has no admin recorded as who added or promoted it.
"""

from __future__ import annotations

import sys
from datetime import timedelta

import click
from flask.cli import AppGroup

from portal.core.config import current_settings
from portal.core.db import db
from portal.core.models import Role
from portal.domain.audit.service import SYSTEM, record
from portal.domain.users import accounts, admins, mfa, passwords
from portal.gateway.rules import check_email

users_cli = AppGroup("users", help="Manage portal users.")


def _one_time_for() -> timedelta:
    return timedelta(hours=current_settings().one_time_password_hours)


def _print_one_time(password: str) -> None:
    click.echo(f"One-time password (shown once): {password}")
    hours = current_settings().one_time_password_hours
    click.echo(f"It works for {hours} hours; the user chooses their own at first sign-in.")


@users_cli.command("create")
@click.argument("email")
@click.option("--role", type=click.Choice([r.value for r in Role]), required=True)
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
def create(email: str, role: str, password_stdin: bool) -> None:
    """Create a user; without --password-stdin print a one-time password."""
    try:
        address = check_email(email)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="EMAIL") from exc
    password = sys.stdin.readline().rstrip("\r\n") if password_stdin else (
        passwords.generate_password())
    try:
        user = accounts.create_user(address, password, Role(role),
                                    one_time_for=None if password_stdin else _one_time_for())
    except accounts.AccountError as exc:
        raise click.ClickException(str(exc)) from exc
    record("user.create", actor=SYSTEM, detail={"email": user.email, "role": user.role})
    db.session.commit()
    click.echo(f"Created {user.role} {user.email}.")
    if not password_stdin:
        _print_one_time(password)


def _set_active(email: str, active: bool) -> None:
    try:
        user = accounts.set_active(email, active)
    except accounts.AccountError as exc:
        raise click.ClickException(str(exc)) from exc
    record("user.activate" if active else "user.deactivate", actor=SYSTEM,
           detail={"email": user.email})
    db.session.commit()
    click.echo(f"{user.email} is now {'active' if active else 'inactive'}.")


@users_cli.command("deactivate")
@click.argument("email")
def deactivate(email: str) -> None:
    """Stop a user's sign-ins and end their session on its next request."""
    _set_active(email, False)


@users_cli.command("activate")
@click.argument("email")
def activate(email: str) -> None:
    """Allow a deactivated user to sign in again."""
    _set_active(email, True)


@users_cli.command("make-admin")
@click.argument("email")
def make_admin(email: str) -> None:
    """Make an operations user an administrator (the team page asks a second person first)."""
    try:
        user = accounts.get_user(email)
    except accounts.AccountError as exc:
        raise click.ClickException(str(exc)) from exc
    if not admins.promote(user.id, None):
        raise click.ClickException(f"{user.email} is not an operations user.")
    record("user.role_change", actor=SYSTEM,
           detail={"email": user.email, "from": Role.OPS.value, "to": Role.ADMIN.value})
    db.session.commit()
    click.echo(f"{user.email} is now an administrator.")


@users_cli.command("reset-authenticator")
@click.argument("email")
def reset_authenticator(email: str) -> None:
    """Remove a user's authenticator and recovery codes (they lost both) and end their sessions;
    a user who must use one enrols again at the next sign-in."""
    try:
        user = accounts.get_user(email)
    except accounts.AccountError as exc:
        raise click.ClickException(str(exc)) from exc
    mfa.remove_authenticator(user)
    record("user.mfa_reset", actor=SYSTEM, detail={"email": user.email})
    db.session.commit()
    click.echo(f"{user.email} has no authenticator now and is signed out everywhere.")


@users_cli.command("list")
def list_users() -> None:
    """Print every user with role, state and last sign-in."""
    for user in accounts.list_users():
        state = "active" if user.active else "inactive"
        seen = user.last_login_at.isoformat(timespec="minutes") if user.last_login_at else "never"
        click.echo(f"{user.email}\t{user.role}\t{state}\tlast sign-in: {seen}")


@users_cli.command("ensure-admin")
def ensure_admin() -> None:
    """Create admin@localhost with a printed one-time password if there is no admin yet."""
    password = accounts.ensure_admin(_one_time_for())
    if password is None:
        click.echo("An admin already exists.")
        return
    record("user.create", actor=SYSTEM,
           detail={"email": accounts.DEFAULT_ADMIN_EMAIL, "role": "admin"})
    db.session.commit()
    click.echo(f"Created admin {accounts.DEFAULT_ADMIN_EMAIL}.")
    _print_one_time(password)
