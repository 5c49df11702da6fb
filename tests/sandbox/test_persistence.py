"""The sandbox keeps its records across restarts (``--state FILE``, as ``make run`` starts it):
an onboarding record, a payment, a registered payments key, a webhook and a moved clock all
survive a SIGKILL and a new start; a state file that cannot be read is set aside, not fatal."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
import requests

from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.payments.client import PaymentsClient
from portal.gateway.retry import NO_RETRY, RetryPolicy
from portal.gateway.transport import Timeouts
from portal.sandbox.app import SavingTicker, StateFile, create_sandbox_app, state_of
from portal.sandbox.common.config import config_from
from tests.sandbox.payloads import create_body, fill_every_step
from tests.sandbox.payments.support import initiate_body, pay_by_card
from tests.sandbox.support import CONFIG, KEY, SECRET
from tests.support.keys import new_key_pair
from tests.support.sandbox import gateway_key
from tests.support.servers import ROOT, free_port, serve

MID, KID = "MIDKEPT0001", "kid-kept-1"


@contextmanager
def sandbox_process(config: Path, state: Path, log: Path) -> Iterator[subprocess.Popen]:
    """``python -m portal.sandbox`` as ``make run`` starts it; its URL is ``process.url``."""
    port = free_port()
    command = [sys.executable, "-m", "portal.sandbox", "--port", str(port),
               "--config", str(config), "--state", str(state)]
    with log.open("ab") as output, subprocess.Popen(  # noqa: S603 (our own command)
            command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT) as process:
        process.url = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(process.url + "/openapi.json", timeout=2).ok:
                    break
            except requests.RequestException:
                pass
            assert process.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "the sandbox did not start"
            time.sleep(0.05)
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)


def payments_client(url: str, private_pem: str) -> PaymentsClient:
    """MID's payments client for the sandbox at ``url`` (the wall clock signs)."""
    gateway_pem = requests.get(url + "/gl/v1/gateway-key.pem", timeout=5)
    return PaymentsClient(url, merchant_id=MID, kid=KID, private_key_pem=private_pem,
                          gateway_public_key_pem=gateway_pem.text,
                          gateway_kid=gateway_pem.headers["x-gl-kid"],
                          timeouts=Timeouts(connect=1.0, read=5.0), retry=RetryPolicy(attempts=1))


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The config file, the state file and the log of the sandbox processes."""
    config = tmp_path / "sandbox.json"
    config.write_text(json.dumps({"gatewayPrivateKeyPem": gateway_key().private_pem, **CONFIG}))
    return config, tmp_path / "sandbox-state.json", tmp_path / "sandbox.log"


def test_records_keys_webhooks_and_the_clock_survive_a_kill(files):
    config, state, log = files
    keys = new_key_pair()
    with sandbox_process(config, state, log) as first:
        partner = OnboardingClient(first.url, KEY, SECRET, retry=NO_RETRY)
        onboarding_id = partner.create_onboarding(create_body()).onboarding_id
        hook = partner.register_webhook("p1", "http://127.0.0.1:9/hook")
        assert requests.post(first.url + "/_sandbox/merchants", timeout=5, json={
            "mid": MID, "kid": KID, "publicKeyPem": keys.public_pem}).ok
        gid = payments_client(first.url, keys.private_pem).initiate(initiate_body()).gid
        requests.post(first.url + "/_sandbox/clock", json={"advanceSeconds": 3600}, timeout=5)
        first.kill()  # no chance to save anything more: what was answered is on disk
    assert json.loads(state.read_text())["version"] == 1
    assert state.stat().st_mode & 0o777 == 0o600

    with sandbox_process(config, state, log) as second:
        partner = OnboardingClient(second.url, KEY, SECRET, retry=NO_RETRY)
        assert partner.get_status(onboarding_id).merchantInfo.onboardingId == onboarding_id
        assert [h.webhookId for h in partner.list_webhooks("p1").webhooks] == [hook.webhookId]
        # the key registered before the kill still verifies the merchant's signature
        status = payments_client(second.url, keys.private_pem).status(gid)
        assert status.data.gid == gid
        now = datetime.fromisoformat(
            requests.get(second.url + "/_sandbox/clock", timeout=5).json()["data"]["now"])
        assert 3500 < (now - datetime.now(UTC)).total_seconds() < 3700


def test_an_unreadable_state_file_is_set_aside_and_the_sandbox_starts_empty(tmp_path, caplog):
    state_path = tmp_path / "sandbox-state.json"
    state_path.write_text("{not json")
    app = create_sandbox_app(config_from({"gatewayPrivateKeyPem": gateway_key().private_pem,
                                          **CONFIG}))
    state = state_of(app)
    assert StateFile(state_path, state).load() is False
    assert (tmp_path / "sandbox-state.json.unreadable").read_text() == "{not json"
    assert "could not be read" in caplog.text
    assert state.onboarding.snapshot()["records"] == []


def test_a_save_writes_only_what_changed(tmp_path):
    app = create_sandbox_app(config_from({"gatewayPrivateKeyPem": gateway_key().private_pem,
                                          **CONFIG}))
    state_file = StateFile(tmp_path / "state.json", state_of(app))
    state_file.save()
    written = (tmp_path / "state.json").stat().st_mtime_ns
    state_file.save()
    assert (tmp_path / "state.json").stat().st_mtime_ns == written
    assert not (tmp_path / "state.json.tmp").exists()


def test_a_whole_journey_reads_back_as_it_was_written(tmp_path):
    keys = new_key_pair()
    built = config_from({"gatewayPrivateKeyPem": gateway_key().private_pem, **CONFIG,
                         "merchants": [{"mid": MID, "keys": [{"kid": KID,
                                                              "publicKeyPem": keys.public_pem}]}]})
    app = create_sandbox_app(built)
    state = state_of(app)
    with serve(app) as url, requests.Session() as http:
        partner = OnboardingClient(url, KEY, SECRET, retry=NO_RETRY)
        onboarding_id = partner.create_onboarding(create_body()).onboarding_id
        fill_every_step(partner, onboarding_id)
        partner.get_verification_redirect(onboarding_id, {"callBackUrl": "https://p.example/cb"})
        client = payments_client(url, keys.private_pem)
        started = client.initiate(initiate_body())
        pay_by_card(http, started.data.redirectUrl, "4111111111111111")
        client.capture(started.gid, "CAPTURE00000001", None)
        client.refund(started.gid, "REFUND000000001", "USD", "20.00")
    written = state.snapshot()
    again = state_of(create_sandbox_app(built))
    again.restore(json.loads(json.dumps(written)))
    assert again.snapshot() == written
    record = again.onboarding._get(onboarding_id)
    assert record.business is not None and record.status == "PENDING_VERIFICATION"
    assert again.payments.get(started.gid).refunded == Decimal("20.00")


def test_a_tick_that_decided_a_review_is_kept_and_an_idle_one_writes_nothing(tmp_path):
    app = create_sandbox_app(config_from({"gatewayPrivateKeyPem": gateway_key().private_pem,
                                          **CONFIG}))
    state = state_of(app)
    backend = state.onboarding
    state_file = StateFile(tmp_path / "state.json", state)
    ticker = SavingTicker(backend, state_file)
    with serve(app) as url:
        partner = OnboardingClient(url, KEY, SECRET, retry=NO_RETRY)
        onboarding_id = partner.create_onboarding(create_body()).onboarding_id
        fill_every_step(partner, onboarding_id)
    state.config.reviewSeconds = 60
    for step in (backend.acknowledge_tnc, backend.complete_digilocker,
                 backend.complete_verification):
        step(onboarding_id)
    state_file.save()
    written = (tmp_path / "state.json").stat().st_mtime_ns
    ticker.tick()  # the review is not due yet: nothing to keep
    assert (tmp_path / "state.json").stat().st_mtime_ns == written
    state.clock.advance(61)
    ticker.tick()
    kept = json.loads((tmp_path / "state.json").read_text())
    [record] = kept["backends"]["onboarding"]["records"]
    assert record["status"] == "APPROVED"
