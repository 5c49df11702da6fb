"""Every ``flask --app app ... --help`` works before anything is configured."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import click
from flask import Flask

from portal.app.cli import register_commands
from portal.app.unconfigured import unconfigured_app
from portal.core.config import ConfigError
from portal.core.config_fields import ROOT
from portal.core.config_table import VARIABLES

#: Runs in a fresh process: ``flask --app app PATH --help`` for every command PATH, each as the
#: ``flask`` command line runs it, and prints {path: exit status} as JSON.
EVERY_HELP = """
import json, sys
from pathlib import Path
import portal.core.config
portal.core.config.DEV_ENV_FILE = Path(sys.argv[1])  # stands in for instance/portal.env
from flask.cli import FlaskGroup
paths = json.loads(sys.argv[2])
statuses = {}
for path in paths:
    try:
        FlaskGroup(name="flask").main(["--app", "app", *path, "--help"], prog_name="flask",
                                      standalone_mode=False)
        statuses[" ".join(path)] = 0
    except SystemExit as exc:
        statuses[" ".join(path)] = exc.code
print("STATUSES " + json.dumps(statuses))
"""


def _command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[list[str]]:
    paths = []
    for name, command in group.commands.items():
        paths.append([*prefix, name])
        if isinstance(command, click.Group):
            paths += _command_paths(command, (*prefix, name))
    return paths


def _empty_environment() -> dict[str, str]:
    names = {v.name for v in VARIABLES} | {"PORTAL_ENV_FILE"}
    return {k: v for k, v in os.environ.items() if k not in names}


def _every_command() -> list[list[str]]:
    app = Flask("commands")
    register_commands(app)
    return [[], *_command_paths(app.cli), ["run"], ["shell"], ["routes"]]


def test_every_commands_help_exits_0_with_an_empty_environment(tmp_path):
    paths = _every_command()
    assert len(paths) > 30  # every group and its commands
    result = subprocess.run(  # noqa: S603 (our own interpreter and arguments)
        [sys.executable, "-c", EVERY_HELP, str(tmp_path / "absent.env"), json.dumps(paths)],
        cwd=ROOT, env=_empty_environment(), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("STATUSES "))
    statuses = json.loads(line.removeprefix("STATUSES "))
    assert statuses == {" ".join(path): 0 for path in paths}, result.stderr
    assert "Configuration error" not in result.stdout + result.stderr


def test_flask_help_lists_the_commands_and_a_command_still_refuses(tmp_path):
    environment = {**_empty_environment(), "PORTAL_ENV_FILE": str(tmp_path / "absent.env")}
    flask = [sys.executable, "-m", "flask", "--app", "app"]
    listed = subprocess.run([*flask, "--help"], cwd=ROOT, env=environment,  # noqa: S603
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert "users" in listed.stdout and "Configuration error" not in listed.stderr
    ran = subprocess.run([*flask, "users", "list"], cwd=ROOT, env=environment,  # noqa: S603
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 3
    assert ran.stderr.startswith("Configuration error: Missing configuration: SECRET_KEY")


def test_the_unconfigured_app_serves_only_the_refusal():
    app = unconfigured_app(ConfigError("Missing configuration: SECRET_KEY."))
    response = app.test_client().get("/")
    assert response.status_code == 503
    assert response.text == "Configuration error: Missing configuration: SECRET_KEY.\n"


def test_the_registered_commands_are_left_as_they_are():
    unconfigured_app(ConfigError("Missing configuration: SECRET_KEY."))
    app = Flask("commands")
    register_commands(app)
    listing = app.cli.commands["users"].commands["list"]
    assert listing.callback.__name__ != "refuse"
