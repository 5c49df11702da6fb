"""``flask users ...`` and ``flask db upgrade``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from portal.app.devsetup import write_dev_config
from portal.core.config_fields import ROOT
from portal.core.config_table import VARIABLES
from portal.core.db import db
from portal.core.models import AuditEvent
from portal.domain.four_eyes.queries import waiting_for
from portal.domain.four_eyes.requests import request_portfolio_key
from portal.domain.users.accounts import DEFAULT_ADMIN_EMAIL, authenticate, find_user
from portal.domain.users.vouching import vouchers_of
from tests.support.accounts import TEST_PASSWORD

PRINTED_PASSWORD = re.compile(r"One-time password \(shown once\): (\S+)")


def _printed_password(output: str) -> str:
    found = PRINTED_PASSWORD.findall(output)
    assert len(found) == 1, output
    return found[0]


def _can_sign_in(app, email: str, password: str) -> bool:
    with app.app_context():
        return authenticate(email, password, "127.0.0.1") is not None


def test_create_prints_a_working_one_time_password(runner, app):
    result = runner.invoke(args=["users", "create", "Ops.Person@Example.com", "--role", "ops"])
    assert result.exit_code == 0, result.output
    password = _printed_password(result.output)
    assert len(password) >= 20
    assert _can_sign_in(app, "ops.person@example.com", password)
    with app.app_context():
        user = find_user("ops.person@example.com")
        assert (user.email, user.role, user.active) == ("ops.person@example.com", "ops", True)
        event = db.session.scalars(select(AuditEvent)).one()
    assert (event.action, event.actor_label) == ("user.create", "system")
    assert password not in str(event.detail)


def test_create_reads_the_password_from_stdin_and_prints_none(runner, app):
    result = runner.invoke(args=["users", "create", "admin@example.com", "--role", "admin",
                                 "--password-stdin"], input=TEST_PASSWORD + "\n")
    assert result.exit_code == 0, result.output
    assert TEST_PASSWORD not in result.output
    assert "password" not in result.output.lower()
    assert _can_sign_in(app, "admin@example.com", TEST_PASSWORD)


def test_create_refuses_a_short_password(runner, app):
    result = runner.invoke(args=["users", "create", "a@example.com", "--role", "ops",
                                 "--password-stdin"], input="short\n")
    assert result.exit_code == 1
    assert "at least 12 characters" in result.output
    with app.app_context():
        assert find_user("a@example.com") is None


def test_create_refuses_a_duplicate_in_any_case(runner):
    runner.invoke(args=["users", "create", "a@example.com", "--role", "ops"])
    result = runner.invoke(args=["users", "create", "A@EXAMPLE.COM", "--role", "admin"])
    assert result.exit_code == 1
    assert "already exists" in result.output


def test_create_refuses_a_bad_email_or_role(runner):
    assert runner.invoke(args=["users", "create", "not-an-email", "--role", "ops"]).exit_code == 2
    assert runner.invoke(args=["users", "create", "a@example.com", "--role", "root"]
                         ).exit_code == 2


def test_deactivate_and_activate(runner, app):
    runner.invoke(args=["users", "create", "a@example.com", "--role", "ops", "--password-stdin"],
                  input=TEST_PASSWORD + "\n")
    result = runner.invoke(args=["users", "deactivate", "A@example.com"])
    assert result.exit_code == 0
    assert "inactive" in result.output
    assert not _can_sign_in(app, "a@example.com", TEST_PASSWORD)

    assert runner.invoke(args=["users", "activate", "a@example.com"]).exit_code == 0
    assert _can_sign_in(app, "a@example.com", TEST_PASSWORD)


def test_deactivate_an_unknown_user_fails(runner):
    result = runner.invoke(args=["users", "deactivate", "ghost@example.com"])
    assert result.exit_code == 1
    assert "No user ghost@example.com" in result.output


def test_list_shows_users_without_secrets(runner):
    runner.invoke(args=["users", "create", "b@example.com", "--role", "admin"])
    runner.invoke(args=["users", "create", "a@example.com", "--role", "ops"])
    runner.invoke(args=["users", "deactivate", "a@example.com"])
    lines = runner.invoke(args=["users", "list"]).output.splitlines()
    assert lines == ["a@example.com\tops\tinactive\tlast sign-in: never",
                     "b@example.com\tadmin\tactive\tlast sign-in: never"]


def test_ensure_admin_creates_one_admin_once(runner, app):
    first = runner.invoke(args=["users", "ensure-admin"])
    assert first.exit_code == 0
    password = _printed_password(first.output)
    assert _can_sign_in(app, DEFAULT_ADMIN_EMAIL, password)

    again = runner.invoke(args=["users", "ensure-admin"])
    assert again.exit_code == 0
    assert again.output == "An admin already exists.\n"


def test_ensure_admin_does_nothing_when_an_admin_exists(runner, app):
    runner.invoke(args=["users", "create", "boss@example.com", "--role", "admin"])
    result = runner.invoke(args=["users", "ensure-admin"])
    assert "password" not in result.output.lower()
    with app.app_context():
        assert find_user(DEFAULT_ADMIN_EMAIL) is None


def test_the_server_makes_a_second_admin_who_may_approve_the_firsts_requests(runner, app):
    """The second factor of trust the team page cannot give the only admin: a command on the
    server. Its admins have no admin recorded as who added or promoted them."""
    assert runner.invoke(args=["users", "ensure-admin"]).exit_code == 0
    made = runner.invoke(args=["users", "create", "second@example.com", "--role", "admin"])
    assert made.exit_code == 0, made.output
    runner.invoke(args=["users", "create", "member@example.com", "--role", "ops"])
    promoted = runner.invoke(args=["users", "make-admin", "member@example.com"])
    assert promoted.exit_code == 0 and "is now an administrator" in promoted.output
    again = runner.invoke(args=["users", "make-admin", "member@example.com"])
    assert again.exit_code != 0 and "not an operations user" in again.output
    with app.app_context():
        first = find_user(DEFAULT_ADMIN_EMAIL)
        request_portfolio_key("PARENT9", "kid-9", None, False, "The partner's key", first.id)
        for email in ("second@example.com", "member@example.com"):
            user = find_user(email)
            assert (user.role, vouchers_of(user)) == ("admin", set())
            assert waiting_for(user.id) == 1, "they may approve the first admin's request"
        changes = db.session.scalars(select(AuditEvent.actor_label).where(
            AuditEvent.action == "user.role_change")).all()
        assert changes == ["system"]


def test_db_upgrade_migrates_the_configured_database(runner):
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "Database migrated to head." in result.output


# ------------------------------------------- `flask --app app ...` typed by hand, as a process

ONE_OFF_FLASK = """
import sys
from pathlib import Path
import portal.core.config
portal.core.config.DEV_ENV_FILE = Path(sys.argv[1])  # stands in for instance/portal.env
from flask.cli import main
sys.argv = ["flask", *sys.argv[2:]]
main()
"""


def _flask(env_file: Path, *args: str, **environment: str) -> subprocess.CompletedProcess:
    """Run ``flask --app app ARGS`` from the repo root in a fresh process, with no configuration
    variable in its environment but ``environment``, and ``env_file`` as instance/portal.env."""
    names = {v.name for v in VARIABLES} | {"PORTAL_ENV_FILE"}
    clean = {k: v for k, v in os.environ.items() if k not in names}
    return subprocess.run(  # noqa: S603 (our own interpreter and arguments)
        [sys.executable, "-c", ONE_OFF_FLASK, str(env_file), "--app", "app", *args],
        cwd=ROOT, env={**clean, **environment}, capture_output=True, text=True, timeout=60)


def test_users_create_by_hand_reads_instance_portal_env_without_variables(tmp_path):
    write_dev_config(tmp_path, 5000, 8100)
    with (tmp_path / "portal.env").open("a", encoding="utf-8") as env_file:
        env_file.write(f"DATABASE_URL=sqlite:///{tmp_path / 'portal.db'}\n")
    assert _flask(tmp_path / "portal.env", "db", "upgrade").returncode == 0
    created = _flask(tmp_path / "portal.env", "users", "create", "ops@example.com", "--role", "ops")
    assert created.returncode == 0, created.stderr
    assert "Created ops ops@example.com." in created.stdout
    assert len(PRINTED_PASSWORD.findall(created.stdout)) == 1


def test_a_missing_secret_is_one_line_and_a_failure_not_a_traceback(tmp_path):
    blanks = {name: "" for name in ("SECRET_KEY", "GATEWAY_API_KEY", "GATEWAY_API_SECRET",
                                     "GATEWAY_ONBOARDING_URL", "CREDENTIALS_KEY",
                                     "KYC_ENCRYPTION_KEYS", "PAN_INDEX_KEY")}
    result = _flask(tmp_path / "absent.env", "users", "create", "ops@example.com", "--role",
                    "ops", PORTAL_ENV="production", **blanks)
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Configuration error: Missing configuration: SECRET_KEY")
