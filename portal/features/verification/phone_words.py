"""What the computer's page says while the merchant goes on on their phone, per hand-over
state (``portal.domain.handover.service``), in the page's language; its script reads them
from data attributes."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.core.redaction import last_digits
from portal.domain.handover import service as handovers

STATE_WORDS = {
    handovers.NONE: _l("No code yet: show one to scan with your phone."),
    handovers.WAITING: _l("Waiting for your phone: scan the code with its camera."),
    handovers.OPENED: _l("The link is open on your phone: carry on there. This page follows "
                         "along."),
    handovers.FINISHED: _l("Finished on your phone."),
    handovers.EXPIRED: _l("This code has expired: make a new one."),
}
#: The state reads could not be had (a lost connection): the page keeps asking.
LOST = _l("This page lost touch with the portal for a moment; it keeps trying.")


def state_words() -> dict[str, str]:
    """Each state's sentence in the page's language (for the page and its status reads)."""
    return {state: str(words) for state, words in STATE_WORDS.items()}


def number_shown(phone: str) -> str:
    """The phone on file as the merchant's page shows it: its last four digits only, in the
    page's language."""
    digits = last_digits(phone)
    return _("ending %(digits)s", digits=digits) if digits else _("on file")
