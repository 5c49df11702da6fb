"""The sandbox's merchant support, for rehearsing a change request: it resets the record for
the change (``POST /_sandbox/onboarding/<id>/reset``), and the answer is recorded as ops would."""

from __future__ import annotations

import requests

from portal.core.config import Settings
from portal.core.db import db
from portal.core.models.change_request import ChangeRequest
from portal.core.models.merchant import Merchant
from portal.domain.audit.service import Actor
from portal.domain.change_requests.service import ChangeRefused, record_answer, section_of

#: The sandbox's control that resets a record for one change of a section.
RESET_PATH = "/_sandbox/onboarding/{onboarding_id}/reset"
ANSWER = "The sandbox's merchant support reset the record for this change."


def support_resets(settings: Settings, change: ChangeRequest, actor: Actor) -> None:
    """Have the sandbox reset the record for ``change``, then record that answer; only against
    the sandbox. ChangeRefused says why not."""
    merchant = db.session.get(Merchant, change.merchant_id)
    if not settings.gateway_is_sandbox or merchant is None or not merchant.onboarding_id:
        raise ChangeRefused("Only the sandbox's support can be asked from here.")
    url = settings.onboarding_url + RESET_PATH.format(onboarding_id=merchant.onboarding_id)
    try:
        answer = requests.post(url, json={"section": section_of(change).gateway_section},
                               timeout=10)
    except requests.RequestException as exc:
        raise ChangeRefused("The sandbox could not be reached; try again.") from exc
    if answer.status_code != 200:
        raise ChangeRefused(f"The sandbox refused the reset (HTTP {answer.status_code}).")
    record_answer(change, True, ANSWER, actor)
