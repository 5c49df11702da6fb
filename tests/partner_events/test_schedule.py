"""The retry schedule and the answers' words, as tables: eight tries over about a day, then
none; every status class said in words."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.domain.partner_events.schedule import MAX_TRIES, RETRY_SCHEDULE, in_words, wait_after
from portal.domain.partner_events.sending import answer_words


@pytest.mark.parametrize(("tries", "wait"), [
    (1, timedelta(seconds=5)), (2, timedelta(minutes=5)), (3, timedelta(minutes=30)),
    (4, timedelta(hours=2)), (5, timedelta(hours=5)), (6, timedelta(hours=10)),
    (7, timedelta(hours=10)), (8, None), (0, None)])
def test_the_wait_after_each_try(tries, wait):
    assert wait_after(tries) == wait


def test_the_schedule_spans_about_a_day():
    assert MAX_TRIES == 8
    assert timedelta(days=1) < sum(RETRY_SCHEDULE, timedelta()) < timedelta(days=2)
    assert [in_words(w) for w in RETRY_SCHEDULE] == [
        "5 seconds", "5 minutes", "30 minutes", "2 hours", "5 hours", "10 hours", "10 hours"]
    assert in_words(timedelta(hours=1)) == "1 hour"


@pytest.mark.parametrize(("status", "words"), [
    (200, "Taken (HTTP 200)."), (204, "Taken (HTTP 204)."),
    (301, "Answered with a redirect (HTTP 301), which is not followed."),
    (401, "Refused (HTTP 401): does the endpoint verify with the current secret?"),
    (404, "Refused by the endpoint (HTTP 404)."), (503, "The endpoint failed (HTTP 503).")])
def test_each_answer_in_words(status, words):
    assert answer_words(status) == words
