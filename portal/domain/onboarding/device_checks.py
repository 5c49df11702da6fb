"""Is the merchant's device ready for the video call? What their link's page found, kept for ops.

Camera and microphone fail inside in-app browsers (WhatsApp, Instagram, Facebook webviews) and
on pages that are not a secure context; the merchant sees a black box. The page checks before
the gateway's frame loads and reports what it found here; ops read it on the merchant's page.
"""

from __future__ import annotations

import re

from sqlalchemy import func, select

from portal.core import clock
from portal.core.db import db
from portal.core.models.verification import MerchantLink, MerchantLinkCheck
from portal.domain.audit.service import Actor, record

#: In-app browsers by a mark of their user agent: WhatsApp's, Instagram's and Facebook's
#: webviews (Facebook's and Messenger's write FBAN/FBAV/FB_IAB).
IN_APP_BROWSERS = (("WhatsApp", re.compile(r"WhatsApp", re.IGNORECASE)),
                   ("Instagram", re.compile(r"Instagram", re.IGNORECASE)),
                   ("Facebook", re.compile(r"FBAN|FBAV|FB_IAB|FBIOS", re.IGNORECASE)))
TABLET = re.compile(r"iPad|Tablet|Android(?!.*Mobile)", re.IGNORECASE)
PHONE = re.compile(r"Mobile|iPhone|iPod|Android", re.IGNORECASE)
#: Each check that can fail, in words for ops.
CHECKS = {
    "in_app_browser": "opened inside an app's browser, where the camera does not work",
    "insecure_context": "the page was not opened over a secure (https) connection",
    "camera_denied": "camera or microphone refused",
    "camera_missing": "no camera found on the device",
    "camera_unavailable": "the camera could not be started",
    "small_screen": "the screen is too small for the video call",
    "slow_connection": "the connection is too slow for the video call",
}
READY = ""
#: Opened, the check not reported yet (what a page that never reports leaves).
OPENED = "opened"
#: Every state a report can hold, in words for ops.
FOUND = {OPENED: "opened the page; the camera check has not finished",
         READY: "ready: camera and microphone allowed", **CHECKS}
#: Reports kept per link: a page reloaded in a loop cannot fill the table.
MAX_PER_LINK = 50


def in_app_browser(user_agent: str) -> str:
    """The in-app browser ``user_agent`` names ('WhatsApp'...), or ''."""
    return next((name for name, mark in IN_APP_BROWSERS if mark.search(user_agent)), "")


def device_kind(user_agent: str) -> str:
    """'tablet', 'phone' or 'computer', as the user agent says."""
    if TABLET.search(user_agent):
        return "tablet"
    return "phone" if PHONE.search(user_agent) else "computer"


def report(link: MerchantLink, user_agent: str, failed: str, actor: Actor) -> bool:
    """Keep what the page found (``failed``: a FOUND key), audited; False (nothing
    kept) for an unknown check or once the link has MAX_PER_LINK reports. Commits."""
    if failed not in FOUND:
        return False
    kept = db.session.scalar(select(func.count()).select_from(MerchantLinkCheck)
                             .where(MerchantLinkCheck.link_id == link.id)) or 0
    if kept >= MAX_PER_LINK:
        return False
    check = MerchantLinkCheck(link_id=link.id, merchant_id=link.merchant_id, at=clock.utcnow(),
                              device=device_kind(user_agent), in_app=in_app_browser(user_agent),
                              failed=failed)
    db.session.add(check)
    record("merchant_link.check", actor=actor, merchant_id=link.merchant_id,
           outcome="failed" if failed in CHECKS else "ok",
           detail={"link": link.id, "device": check.device, "failed": failed})
    db.session.commit()
    return True


def checks_of(merchant_id: int, limit: int = 10) -> list[MerchantLinkCheck]:
    """The merchant's latest device checks, newest first."""
    return list(db.session.scalars(
        select(MerchantLinkCheck).where(MerchantLinkCheck.merchant_id == merchant_id)
        .order_by(MerchantLinkCheck.at.desc(), MerchantLinkCheck.id.desc()).limit(limit)))
