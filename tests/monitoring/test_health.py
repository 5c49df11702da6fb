"""/healthz and /readyz: open to anyone, JSON, and a 503 that names the failed check in words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from portal.app.factory import create_app
from portal.core.migrate import upgrade
from portal.features.monitoring.readiness import migration_heads
from tests.support.servers import free_port, silent_address
from tests.support.settings import settings_for


@pytest.fixture
def silent_gateway() -> Iterator[str]:
    """An address that accepts connections and never answers (a hung gateway)."""
    with silent_address() as url:
        yield url


def readiness_of(app) -> tuple[int, dict]:
    """The status and JSON body of /readyz, asked without signing in."""
    answer = app.test_client().get("/readyz")
    return answer.status_code, answer.get_json()


def test_healthz_answers_without_signing_in(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ok"}


def test_ready_when_database_migrations_and_gateway_are_fine(app):
    status, body = readiness_of(app)
    assert status == 200
    assert body == {"status": "ready", "failed": [],
                    "checks": {"database": "ok", "migrations": "ok", "gateway": "ok"}}


def test_not_ready_when_the_database_cannot_be_reached(sandbox, tmp_path):
    missing = f"sqlite:///{tmp_path / 'no-such-folder' / 'portal.db'}"
    status, body = readiness_of(create_app(settings_for(missing, sandbox.url, tmp_path)))
    assert status == 503
    assert body["failed"] == ["database", "migrations"]
    assert body["checks"]["database"] == "The database cannot be reached."
    assert body["checks"]["migrations"] == "Not checked: the database cannot be reached."
    assert body["checks"]["gateway"] == "ok"
    assert "no-such-folder" not in str(body)


def test_not_ready_when_migrations_are_behind(sandbox, tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    [head] = migration_heads()
    upgrade(url, "0014")  # a revision before the head
    status, body = readiness_of(create_app(settings_for(url, sandbox.url, tmp_path)))
    assert status == 503
    assert body["failed"] == ["migrations"]
    assert body["checks"]["migrations"].startswith("The database is at migration 0014; the code "
                                                   f"expects {head}.")


def test_not_ready_when_the_gateway_refuses_connections(settings):
    down = f"http://127.0.0.1:{free_port()}"
    status, body = readiness_of(create_app(settings.with_changes(onboarding_url=down)))
    assert status == 503
    assert body["failed"] == ["gateway"]
    assert body["checks"]["gateway"] == "The gateway did not answer within 2 seconds."
    assert down not in str(body)


def test_not_ready_when_the_gateway_does_not_answer_in_time(settings, silent_gateway):
    app = create_app(settings.with_changes(onboarding_url=silent_gateway,
                                           ready_gateway_timeout=0.2))
    status, body = readiness_of(app)
    assert status == 503
    assert body["checks"]["gateway"] == "The gateway did not answer within 0.2 seconds."
