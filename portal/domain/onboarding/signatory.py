"""Who receives a merchant's emails: the authorised signatory saved in step 5 (used by the
merchant emails and the verification page)."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.models.merchant import Merchant
from portal.domain.onboarding.drafts import drafts_of


@dataclass(frozen=True)
class Signatory:
    """Who receives the merchant's emails: the authorised signatory of step 5."""

    name: str
    email: str
    #: The contact phone (``+91...``): where "Send to my phone" texts the merchant.
    phone: str = ""


def signatory_of(merchant: Merchant) -> Signatory | None:
    """The signatory saved in step 5, if an email was given."""
    draft = drafts_of(merchant).get("signatory")
    payload = draft.payload if draft is not None else {}
    contact = payload.get("contact") or {}
    email = str(contact.get("email") or "").strip()
    if not email:
        return None
    return Signatory(str(payload.get("authSignatoryName") or "").strip(), email,
                     str(contact.get("phone") or "").strip())

