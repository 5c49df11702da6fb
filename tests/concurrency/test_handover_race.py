"""Two phones open one hand-over code at the same moment, through a served portal on SQLite
and PostgreSQL: one goes on with the merchant's link, the other is told the code was used."""

from __future__ import annotations

import threading

import requests

from tests.handover.support import make_code
from tests.support.servers import serve
from tests.verification.support import merchant_link, onboard

OPENERS = 2


def test_two_opens_of_one_code_at_once_one_wins(app):
    merchant_id = onboard(app)
    _page, path = make_code(app.test_client(), merchant_link(app, merchant_id))
    start = threading.Barrier(OPENERS)
    answers: list[int] = []
    errors: list[BaseException] = []
    with serve(app) as url:
        def open_code() -> None:
            try:
                http = requests.Session()
                start.wait()
                answers.append(http.get(url + path, allow_redirects=False, timeout=30)
                               .status_code)
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        threads = [threading.Thread(target=open_code) for _ in range(OPENERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert errors == []
    assert sorted(answers) == [303, 410]
