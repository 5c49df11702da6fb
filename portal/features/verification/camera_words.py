"""What the merchant's page says about their device before the video call, in plain words.

The page's script (``static/js/camera-check.js``) holds no words of its own: it reads these
from data attributes, one per outcome of the check.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l


@dataclass(frozen=True)
class CameraWords:
    """The check's sentences: the in-app warning (``in_app`` names the app) and the script's."""

    in_app: str
    script: dict[str, str] = field(default_factory=dict)


SCRIPT = {
    "asking": _l("Your browser now asks whether this page may use the camera and microphone. "
                 "Choose Allow."),
    "ready": _l("Your camera and microphone work. The verification starts below."),
    "camera_denied": _l("The camera or microphone was refused, so the video call cannot take "
                        "place: it needs both. To allow them, tap the lock or the settings icon "
                        "next to the address at the top of this page, choose Permissions (or "
                        "Site settings), set Camera and Microphone to Allow, then tap the "
                        "button again. On an iPhone, open Settings, then Safari, then Camera "
                        "and Microphone, and choose Allow."),
    "camera_missing": _l("No camera was found on this device. Continue on your phone instead: "
                         "tap Continue on my phone below, and scan the code with your phone."),
    "camera_unavailable": _l("The camera could not be started. Another app may be using it: "
                             "close it, then tap the button again."),
    "insecure_context": _l("This page was not opened over a secure connection, so your browser "
                           "does not let it use the camera. Open the link exactly as it was "
                           "sent to you (it starts with https)."),
    "small_screen": _l("Your screen is small for the video call: hold your phone upright, or "
                       "make the window taller."),
    "slow_connection": _l("Your connection looks slow. The video call may stop: move to a "
                          "place with a better signal or a Wi-Fi network if you can."),
}


def for_merchant(in_app: str) -> CameraWords:
    """The check's words for a page opened in ``in_app`` (an app's name, or ''), in the page's
    language."""
    warning = (_("You opened this link inside %(app)s. The video call needs your camera, which "
                 "does not work inside %(app)s.", app=in_app) if in_app else "")
    return CameraWords(in_app=warning, script={key: str(text) for key, text in SCRIPT.items()})
