"""Making a race happen every time: posts sent from several threads at the same moment, and
each request thread waiting, just before its first write to the database, until the others have
reached theirs. Whatever each request read before writing (a count it checks in Python, say) it
read before any of them wrote, which is the interleaving that breaks a check-then-write; a check
made by the write itself holds anyway."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import requests
from sqlalchemy import event
from sqlalchemy.engine import Engine

WRITES = ("INSERT", "UPDATE", "DELETE", "WITH")


@contextmanager
def writes_held_together(engine: Engine, parties: int, seconds: float = 10) -> Iterator[None]:
    """While the block runs, the first write of each of the first ``parties`` threads (other
    than this one) to write waits for the others' (at most ``seconds``, then it goes on)."""
    barrier = threading.Barrier(parties, timeout=seconds)
    held: set[int] = set()
    lock = threading.Lock()
    here = threading.get_ident()

    def before(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        me = threading.get_ident()
        if me == here or not statement.lstrip().upper().startswith(WRITES):
            return
        with lock:
            if me in held or len(held) >= parties:
                return
            held.add(me)
        with suppress(threading.BrokenBarrierError):
            barrier.wait()

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", before)


def post_at_once(posts: list[tuple[requests.Session, str, dict[str, Any]]],
                 allow_redirects: bool = False) -> list[requests.Response]:
    """Send each (browser, URL, body) post from its own thread at the same moment; the
    answers, in the same order."""
    start = threading.Barrier(len(posts))
    answers: list[requests.Response | None] = [None] * len(posts)

    def post(n: int) -> None:
        browser, url, body = posts[n]
        start.wait()
        answers[n] = browser.post(url, data=body, timeout=60, allow_redirects=allow_redirects)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]
