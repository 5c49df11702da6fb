"""The language of a merchant's pages and emails: the default ops chose for the merchant, and
the language the merchant picked on their link's page, which comes first."""

from __future__ import annotations

from sqlalchemy import select

from portal.core.db import db
from portal.core.languages import BY_CODE, known
from portal.core.models.merchant import Merchant
from portal.core.models.verification import MerchantLink
from portal.domain.audit.service import Actor, record


def language_of(merchant: Merchant) -> str:
    """The merchant's language: the one picked on their newest link that has one, else the
    default ops chose."""
    picked = db.session.scalar(
        select(MerchantLink.language).where(MerchantLink.merchant_id == merchant.id,
                                            MerchantLink.language.is_not(None))
        .order_by(MerchantLink.created_at.desc(), MerchantLink.id.desc()).limit(1))
    return known(picked or merchant.language)


def of_link(link: MerchantLink, merchant: Merchant) -> str:
    """The language of the page ``link`` opens: picked on it, else the merchant's."""
    return known(link.language) if link.language else language_of(merchant)


def pick(link: MerchantLink, code: str, actor: Actor) -> bool:
    """The merchant picked ``code`` on the page ``link`` opens; kept with the link (and so for
    the links and emails after it), audited; False for a code not in the table. Commits."""
    if code not in BY_CODE:
        return False
    link.language = code
    record("merchant_link.language", actor=actor, merchant_id=link.merchant_id,
           detail={"link": link.id, "language": code})
    db.session.commit()
    return True


def set_default(merchant: Merchant, code: str, actor: Actor) -> bool:
    """Ops chose ``code`` as the merchant's language, audited with the one before; False for a
    code not in the table. Commits."""
    if code not in BY_CODE:
        return False
    before, merchant.language = merchant.language, code
    record("merchant.language", actor=actor, merchant_id=merchant.id,
           detail={"from": before, "to": code})
    db.session.commit()
    return True
