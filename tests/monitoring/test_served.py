"""The operator's view of a served portal: gunicorn with 2 worker processes on PostgreSQL, as
scripts/run-dev.sh starts it. /metrics adds up both workers (Prometheus' multiprocess mode), and
with LOG_FORMAT=json every line gunicorn and the portal write is a JSON object with the request
id the client was given, and no PAN or token."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from prometheus_client.multiprocess import MultiProcessCollector

from portal.core.config import Settings
from tests.support.postgres import shared_postgres
from tests.support.scrapes import sample
from tests.support.servers import free_port, gunicorn_portal, silent_address

pytestmark = pytest.mark.postgres

PAN = "ABCPE1234F"
TOKEN = "abc123secret"


database_url = shared_postgres()


@pytest.fixture
def metrics_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the workers write their metrics to (PROMETHEUS_MULTIPROC_DIR)."""
    folder = tmp_path / "metrics"
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    return folder


@pytest.fixture
def silent_gateway() -> Iterator[str]:
    """A gateway that accepts connections and never answers."""
    with silent_address() as url:
        yield url


def healthz_count(url: str) -> float:
    """The /healthz requests all workers have counted, as one scrape reports them."""
    text = requests.get(url + "/metrics", timeout=10).text
    return sample(text, "portal_http_requests_total", route="/healthz", method="GET",
                  status="200")


def requests_by_worker(folder: Path) -> dict[str, float]:
    """Each worker's own count of HTTP requests, read from its file alone."""
    counts = {}
    for path in folder.glob("counter_*.db"):
        metrics = MultiProcessCollector.merge([str(path)], accumulate=True)
        counts[path.stem] = sum(s.value for m in metrics for s in m.samples
                                if s.name == "portal_http_requests_total")
    return counts


def wait_for_ready_workers(log: Path, count: int, within: float = 60.0) -> None:
    """Poll gunicorn's log until ``count`` workers say they have loaded the app."""
    deadline = time.monotonic() + within
    while log.read_text().count("Worker ready") < count:
        assert time.monotonic() < deadline, f"fewer than {count} workers ready in {within} s"
        time.sleep(0.05)


def test_metrics_add_up_both_worker_processes(settings: Settings, metrics_folder: Path,
                                              silent_gateway: str, tmp_path: Path):
    # one worker is held on /readyz (the gateway never answers): meanwhile the other answers
    served = settings.with_changes(onboarding_url=silent_gateway, ready_gateway_timeout=2.0)
    log = tmp_path / "portal.log"
    with gunicorn_portal(served, log) as url:
        wait_for_ready_workers(log, 2)  # else the held one may be the only one booted yet
        before = healthz_count(url)
        readyz: list[requests.Response] = []
        held = threading.Thread(target=lambda: readyz.append(
            requests.get(url + "/readyz", timeout=30)))
        held.start()
        sent = 0
        while held.is_alive():
            assert requests.get(url + "/healthz", timeout=10).ok
            sent += 1
        held.join()
        [answer] = readyz
        assert answer.status_code == 503 and answer.json()["failed"] == ["gateway"]
        assert healthz_count(url) - before == sent
        by_worker = requests_by_worker(metrics_folder)
    assert len(by_worker) == 2 and all(count > 0 for count in by_worker.values())


def log_lines(path: Path) -> list[dict]:
    """Every line of the log, each parsed as JSON (a line that is not JSON fails the test)."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_json_log_lines_of_a_served_request(settings: Settings, metrics_folder: Path,
                                            tmp_path: Path):
    served = settings.with_changes(log_format="json",
                                   onboarding_url=f"http://127.0.0.1:{free_port()}")
    log = tmp_path / "portal.log"
    with gunicorn_portal(served, log, "--workers", "1") as url:
        page = requests.get(f"{url}/login?next=/merchants%3Fq%3D{PAN}&token={TOKEN}", timeout=10)
        not_ready = requests.get(url + "/readyz", timeout=10)
    assert page.status_code == 200 and not_ready.status_code == 503
    lines = log_lines(log)
    assert {"time", "level", "logger", "request_id", "user_id", "merchant_id",
            "message"} <= set(lines[0])
    assert PAN not in log.read_text() and TOKEN not in log.read_text()

    def of(answer: requests.Response) -> list[dict]:
        return [line for line in lines if line["request_id"] == answer.headers["X-Request-ID"]]

    [access] = of(page)
    assert access["logger"] == "gunicorn.access" and "GET /login?next=" in access["message"]
    readiness = {line["logger"]: line for line in of(not_ready)}
    assert set(readiness) == {"portal.monitoring", "gunicorn.access"}
    assert readiness["portal.monitoring"]["level"] == "WARNING"
    assert "The gateway did not answer" in readiness["portal.monitoring"]["message"]
