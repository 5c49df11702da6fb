"""The portal as the ``flask`` command loads it while its configuration cannot start it.

Every command is listed and its ``--help`` works, so an operator can read what each does
before anything is configured. Running one prints the configuration error and stops, as
before, except the commands that write the configuration (``flask setup gateway``). Served
over HTTP, this app answers every request 503 with the same line.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Iterable

import click
from flask import Flask
from flask.cli import ScriptInfo

from portal.app.cli import register_commands
from portal.core.config import ConfigError
from portal.core.config_fields import INSTANCE, ROOT
from portal.core.startup import BOOT_ERROR, refusal

#: Commands that run without a working configuration, by their full name.
RUNS_UNCONFIGURED = frozenset({"setup gateway"})


def loaded_by_flask_command() -> bool:
    """True while the ``flask`` command line (not gunicorn, not an import) loads the app."""
    context = click.get_current_context(silent=True)
    return context is not None and context.find_object(ScriptInfo) is not None


def _refuse(error: ConfigError) -> Callable[..., None]:
    def refuse(*_args: object, **_kwargs: object) -> None:
        click.echo(refusal(error), err=True)
        sys.exit(BOOT_ERROR)
    return refuse


def _guarded(command: click.Command, name: str, error: ConfigError) -> click.Command:
    """A copy of ``command`` (and of its subcommands) whose run refuses with ``error``; the
    registered command objects stay as they are."""
    guarded = copy.copy(command)
    if isinstance(command, click.Group):
        guarded.commands = {sub_name: _guarded(sub, f"{name} {sub_name}", error)
                            for sub_name, sub in command.commands.items()}
    elif name not in RUNS_UNCONFIGURED:
        guarded.callback = _refuse(error)
    return guarded


def _refusing_wsgi(error: ConfigError) -> Callable[[dict, Callable], Iterable[bytes]]:
    body = (refusal(error) + "\n").encode("utf-8")

    def answer(_environ: dict, start_response: Callable) -> Iterable[bytes]:
        start_response("503 Service Unavailable", [("Content-Type", "text/plain; charset=utf-8"),
                                                   ("Content-Length", str(len(body)))])
        return [body]
    return answer


def unconfigured_app(error: ConfigError) -> Flask:
    """The app ``flask`` gets when the configuration is refused with ``error``."""
    app = Flask("portal", template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"), instance_path=str(INSTANCE))
    registered = Flask("portal-commands")
    register_commands(registered)
    for name, command in registered.cli.commands.items():
        app.cli.add_command(_guarded(command, name, error), name)
    app.wsgi_app = _refusing_wsgi(error)  # type: ignore[method-assign]
    return app
