"""What the verification page says, in the words of whoever reads it.

Ops read it inside the portal, where "the gateway" and its review are their daily words. The
sub-merchant reads it on the page their emailed link opens: there the partner's name
(PARTNER_NAME) stands where ops would read "the gateway", and nothing speaks of confirmations,
compliance teams or statuses by their names, in the merchant's language (the strings are
gettext's, read when the page is drawn).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.domain.onboarding.status_reads import describe
from portal.gateway.onboarding.vocabulary import OnboardingStatus

#: What happens next for ops, in words, once the gateway has said where the record stands.
OPS_NEXT = {
    OnboardingStatus.PENDING_VERIFICATION: "Some verification steps are still open: finish "
    "them on the page below.",
    OnboardingStatus.PENDING_REVIEW: "Verification is complete; nothing more is needed here. "
    "The gateway's compliance team now reviews the merchant and decides: approved, more "
    "information needed, or rejected. The decision arrives by itself; there is no need to "
    "wait on this page.",
    OnboardingStatus.RFI: "The review asks for more information; the partner is told what "
    "to send.",
    OnboardingStatus.APPROVED: "The merchant is approved and can take payments.",
    OnboardingStatus.REJECTED: "The merchant was rejected; this onboarding cannot continue.",
}

#: The merchant's outcome and what happens next; ``{partner}`` is the partner's name.
MERCHANT_OUTCOMES = {
    OnboardingStatus.PENDING_VERIFICATION: (
        _l("Some steps are still open."), _l("Finish them on the page below.")),
    OnboardingStatus.PENDING_REVIEW: (
        _l("Thank you: your verification is complete."),
        _l("{partner} now checks your details and will let you know the outcome. There is "
           "nothing more to do here; you can close this page.")),
    OnboardingStatus.RFI: (
        _l("Thank you: your verification is complete."),
        _l("{partner} needs one more document from you and will tell you which.")),
    OnboardingStatus.APPROVED: (
        _l("Your business is approved."), _l("{partner} will be in touch about taking payments.")),
    OnboardingStatus.REJECTED: (
        _l("Your application could not be approved."), _l("{partner} will contact you about it.")),
}
MERCHANT_ANYTHING_ELSE = (_l("Thank you."), _l("{partner} will let you know what happens next."))
#: The verification steps as the merchant reads them, by the postMessage step name.
MERCHANT_STEPS = {"TNC": _l("Terms and conditions"), "DIGILOCKER": "DigiLocker",
                  "VKYC": _l("Video KYC")}


@dataclass(frozen=True)
class PageWords:
    """The sentences of one audience's verification page; the page's script reads the
    ``script`` ones from data attributes (it holds no words of its own)."""

    intro: str
    frame_title: str
    #: The confirmed outcome's message and next step, per status.
    outcomes: dict[str, tuple[str, str]]
    unconfirmed: str
    #: Under the frame; ``{expires}`` is when the gateway's link lapses.
    link_note: str = ""
    script: dict[str, str] = field(default_factory=dict)
    #: A step's name when it is not its label's (step name: words).
    step_labels: dict[str, str] = field(default_factory=dict)
    #: A step done that the gateway still reviews.
    under_review: str = "Done, the gateway reviews it"

    def outcome(self, status: str) -> tuple[str, str]:
        """The message and the next step once the outcome is read (``status``)."""
        return self.outcomes.get(status, self.outcomes.get("", ("", "")))

    def finished(self, status: str) -> tuple[str, str]:
        """The outcome once verification is done: a status not moved on yet reads as the
        review it waits for."""
        waiting = status in ("", OnboardingStatus.PENDING_VERIFICATION)
        return self.outcome(OnboardingStatus.PENDING_REVIEW if waiting else status)


def for_ops() -> PageWords:
    """The page as ops read it in the portal."""
    outcomes = {status: (f"Confirmed by the gateway: {describe(status)}.", next_step)
                for status, next_step in OPS_NEXT.items()}
    return PageWords(
        intro="Accept the terms, share documents through DigiLocker and complete the video call "
              "below. The result shown here is always confirmed with the gateway, never taken "
              "from the page alone.",
        frame_title="Verification with the payment gateway",
        outcomes=outcomes,
        unconfirmed="The gateway could not be asked for the outcome just now; it will be "
                    "checked again shortly.",
        link_note="This link works once and until {expires} UTC; reloading the page asks the "
                  "gateway for a fresh one.",
        script={"checking": "Verification finished. Asking the gateway for the outcome…",
                "unconfirmed": "The outcome could not be confirmed just now; it will be "
                               "checked again shortly.",
                "outside-digilocker": "The gateway opens DigiLocker outside this page; you "
                                      "come back here when it is done.",
                "outside-other": "The gateway opens its next step outside this page; you come "
                                 "back here when it is done.",
                "closed": "The verification page was closed before the end. Reload this page "
                          "to start again."})


def for_merchant(partner: str) -> PageWords:
    """The page as the sub-merchant reads it, in the page's language, ``partner`` naming who
    onboards them."""
    outcomes = {status: (str(message), str(next_step).format(partner=partner))
                for status, (message, next_step) in MERCHANT_OUTCOMES.items()}
    message, next_step = MERCHANT_ANYTHING_ELSE
    outcomes[""] = (str(message), str(next_step).format(partner=partner))
    return PageWords(
        intro=_("%(partner)s is setting up card payments for your business. The last part is "
                "yours: accept the terms, share your documents through DigiLocker and complete "
                "a short video call, all on the page below.", partner=partner),
        frame_title=_("Your verification"),
        outcomes=outcomes,
        unconfirmed=_("We could not check the result just now. It is checked again shortly; "
                      "you can close this page."),
        link_note=_("If the page below stops responding, reload this page: you go on where you "
                    "left off."),
        script={"checking": _("Thank you. Checking the result…"),
                "unconfirmed": _("We could not check the result just now. It is checked again "
                                 "shortly; you can close this page."),
                "outside-digilocker": _("DigiLocker opens in this window; you come back here "
                                        "when it is done."),
                "outside-other": _("The next step opens in this window; you come back here "
                                   "when it is done."),
                "closed": _("The verification was closed before the end. Reload this page to "
                            "start again.")},
        step_labels={step: str(words) for step, words in MERCHANT_STEPS.items()},
        under_review=_("Done, being checked"))
