"""Each answer carries its own gid, and one client can be shared by threads."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from portal.domain.onboarding.steps import BY_KEY
from portal.gateway.onboarding.answers import MerchantData
from portal.gateway.onboarding.client import OnboardingClient
from portal.gateway.transport import Transport


def envelope(gid: str, status: str = "IN_PROGRESS") -> dict:
    return {"gid": gid, "timestamp": "01/01/2025 10:00:00", "reasonCode": "SUCCESS",
            "errors": None,
            "data": {"merchantInfo": {"onboardingId": "ob-1", "onboardingStatus": status}}}


def test_each_answer_carries_the_gid_it_came_with(server, make_client) -> None:
    server.program(server.reply(200, envelope("gl-first")), server.reply(200, envelope("gl-2nd")))
    client = make_client(server.url)
    first, second = client.get_status("ob-1"), client.get_status("ob-1")
    assert (first.answer_gid, second.answer_gid) == ("gl-first", "gl-2nd")
    assert not hasattr(client, "last_gid")


def test_a_body_not_parsed_from_an_answer_has_no_gid() -> None:
    assert MerchantData.model_validate({"merchantInfo": {"onboardingId": "x"}}).answer_gid == ""


def test_a_slow_answer_keeps_its_gid_when_another_thread_finishes_first(server,
                                                                       make_client) -> None:
    server.program(server.slow(0.5, 200, envelope("gl-slow")), server.reply(200, envelope("gl-b")))
    client = make_client(server.url)
    with ThreadPoolExecutor(1) as pool:
        slow = pool.submit(client.get_status, "ob-1")
        polls = threading.Event()
        while not server.received and not polls.wait(0.01):  # until it holds the 1st answer
            pass
        fast = client.get_status("ob-1")
        server._server.release.set()
        assert (slow.result().answer_gid, fast.answer_gid) == ("gl-slow", "gl-b")


def test_threads_sharing_a_transport_each_get_their_own_session() -> None:
    transport = Transport("http://127.0.0.1:9")
    mine = transport._session()
    with ThreadPoolExecutor(1) as pool:
        theirs = pool.submit(transport._session).result()
    assert transport._session() is mine
    assert theirs is not mine


def test_every_step_with_a_form_sends_through_its_own_client_operation() -> None:
    assert BY_KEY["business"].send is OnboardingClient.update_business_details
    assert BY_KEY["bank"].send is OnboardingClient.update_bank_details
    assert BY_KEY["create"].send is not None and BY_KEY["verification"].send is None
