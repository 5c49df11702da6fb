"""A configuration error stops gunicorn itself. The documented command, started without each
required variable, ends at once with the one line naming it, before any port is opened or
worker booted."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from portal.core.config import Settings
from portal.core.config_fields import env_name, field_options
from portal.core.config_table import VARIABLES
from tests.support.production import production_environment
from tests.support.servers import GUNICORN, ROOT, free_port

#: Every variable production refuses to start without.
REQUIRED = [env_name(info) for info in Settings.model_fields.values()
            if field_options(info)["required"]]
#: The command of docs/operator/several-processes.md, on a loopback port.
DOCUMENTED_OPTIONS = ("--workers", "4", "--worker-class", "gthread", "--threads", "4")
#: Long enough for gunicorn to start and stop; a server that keeps booting workers runs past it.
WITHIN_SECONDS = 30


def environment(folder: Path, **changes: str) -> dict[str, str]:
    """The process environment of a production portal, with ``changes``; no env file is read."""
    names = {variable.name for variable in VARIABLES}
    inherited = {k: v for k, v in os.environ.items()
                 if k not in names and k != "PROMETHEUS_MULTIPROC_DIR"}
    return {**inherited, **production_environment(folder),
            "DATABASE_URL": f"sqlite:///{folder / 'portal.db'}",
            "PORTAL_ENV_FILE": str(folder / "absent.env"), **changes}


def start_gunicorn(environ: dict[str, str], *config: str) -> subprocess.CompletedProcess[str]:
    """Run the documented gunicorn command until it ends by itself."""
    port = free_port()
    command = [*GUNICORN[:3], *(config or GUNICORN[3:]), *DOCUMENTED_OPTIONS,
               "--bind", f"127.0.0.1:{port}", "app:app"]
    return subprocess.run(command, env=environ, cwd=ROOT, capture_output=True, text=True,  # noqa: S603
                          timeout=WITHIN_SECONDS)


def refusal_lines(output: str) -> list[str]:
    """The lines saying what is wrong with the configuration."""
    return [line for line in output.splitlines() if "Configuration error:" in line]


@pytest.mark.parametrize("variable", REQUIRED)
def test_a_missing_variable_stops_gunicorn_before_any_worker_boots(tmp_path, variable):
    ended = start_gunicorn(environment(tmp_path, **{variable: ""}))
    output = ended.stdout + ended.stderr
    assert ended.returncode == 1, output
    assert refusal_lines(output) == [
        f"Configuration error: Missing configuration: {variable}. Set them in the environment "
        "or a .env file (see docs/operator/configuration.md)."]
    assert "Booting worker" not in output and "Traceback" not in output
    assert "Listening at" not in output


@pytest.mark.parametrize(("changes", "line"), [
    ({"SECRET_KEY": "x"}, "Configuration error: SECRET_KEY is too short to be a secret"),
    ({"PORTAL_ENV": "development", "PAN_INDEX_KEY": ""},
     "Configuration error: PAN_INDEX_KEY is not set"),
])
def test_a_weak_secret_or_a_missing_key_in_development_stops_gunicorn_too(tmp_path, changes,
                                                                          line):
    ended = start_gunicorn(environment(tmp_path, **changes))
    output = ended.stdout + ended.stderr
    assert ended.returncode == 1, output
    [refused] = refusal_lines(output)
    assert refused.startswith(line)
    assert "Booting worker" not in output


def test_without_the_portals_gunicorn_config_a_refusing_worker_still_stops_gunicorn(tmp_path):
    bare = tmp_path / "bare.conf.py"
    bare.write_text("", encoding="utf-8")
    ended = start_gunicorn(environment(tmp_path, SECRET_KEY=""), "--config", str(bare))
    output = ended.stdout + ended.stderr
    # gunicorn stops with "Worker failed to boot": status 3 from its main loop, or 1 when the
    # worker fails before the master reached that loop (the HaltServer then escapes start-up)
    assert ended.returncode in (1, 3), output
    assert "Worker failed to boot" in output
    assert refusal_lines(output)
    assert all(line.startswith("Configuration error: Missing configuration: SECRET_KEY.")
               for line in refusal_lines(output))
