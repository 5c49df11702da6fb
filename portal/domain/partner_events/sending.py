"""One POST of a delivery to a partner's endpoint: to its checked public address only
(``portal.core.public_address``), with a timeout, no redirect followed, and the answer judged in
words (never its body kept: a receiver's page might hold anything)."""

from __future__ import annotations

from dataclasses import dataclass

import urllib3

from portal.core.public_address import Refused, pinned_pool

USER_AGENT = "PartnerOnboardingPortal-Webhooks/1.0"
#: Seconds to connect and to wait for the answer.
TIMEOUT = urllib3.Timeout(connect=5.0, read=15.0)
#: What the name of the thing reached is in the words.
WHAT = "endpoint"


@dataclass(frozen=True)
class Answer:
    """How one try went: the HTTP status (None: no answer) and what it means, in words."""

    status: int | None
    words: str

    @property
    def delivered(self) -> bool:
        """A 2xx answer: the receiver took it."""
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: str, headers: dict[str, str], allow_loopback: bool) -> Answer:
    """POST ``body`` to ``url`` once."""
    try:
        pinned = pinned_pool(url, allow_loopback, TIMEOUT, WHAT)
        response = pinned.pool.urlopen(
            "POST", pinned.target, body=body.encode("utf-8"), redirect=False,
            headers={**headers, "Host": pinned.host_header, "User-Agent": USER_AGENT,
                     "Content-Type": "application/json"})
    except Refused as exc:
        return Answer(None, str(exc))
    except urllib3.exceptions.TimeoutError:
        return Answer(None, "The endpoint did not answer in time.")
    except urllib3.exceptions.HTTPError as exc:
        return Answer(None, f"The endpoint could not be reached ({type(exc).__name__}).")
    return Answer(response.status, answer_words(response.status))


def answer_words(status: int) -> str:
    """What an HTTP status says about a try."""
    if 200 <= status < 300:
        return f"Taken (HTTP {status})."
    if 300 <= status < 400:
        return f"Answered with a redirect (HTTP {status}), which is not followed."
    if status in (401, 403):
        return f"Refused (HTTP {status}): does the endpoint verify with the current secret?"
    if 400 <= status < 500:
        return f"Refused by the endpoint (HTTP {status})."
    return f"The endpoint failed (HTTP {status})."
