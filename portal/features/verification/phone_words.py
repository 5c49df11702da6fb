"""What the computer's page says while the merchant goes on on their phone, per hand-over
state (``portal.domain.handover.service``); its script reads them from data attributes."""

from __future__ import annotations

from portal.domain.handover import service as handovers

STATE_WORDS = {
    handovers.NONE: "No code yet: show one to scan with your phone.",
    handovers.WAITING: "Waiting for your phone: scan the code with its camera.",
    handovers.OPENED: "The link is open on your phone: carry on there. This page follows "
                      "along.",
    handovers.FINISHED: "Finished on your phone.",
    handovers.EXPIRED: "This code has expired: make a new one.",
}
#: The state reads could not be had (a lost connection): the page keeps asking.
LOST = "This page lost touch with the portal for a moment; it keeps trying."
