"""Merchants, owners and users for the tests of a team's day (owners, the worklist, notices)."""

from __future__ import annotations

from typing import Any

from bs4 import BeautifulSoup
from flask import Flask
from sqlalchemy import select

from portal.core import clock
from portal.core.db import db
from portal.core.models import AuditEvent, Notice
from portal.core.models.merchant import CreateState, Merchant
from portal.domain.users.accounts import find_user


def user_id(app: Flask, email: str) -> int:
    """The id of the user with ``email``."""
    with app.app_context():
        return find_user(email).id


def make_merchant(app: Flask, name: str, *, owner: str | None = None,
                  status: str | None = "IN_PROGRESS", **columns: Any) -> int:
    """A merchant created at the gateway (as far as the portal knows), owned by the user with
    email ``owner``; its id. ``columns`` set any other column."""
    with app.app_context():
        slug = "".join(c if c.isalnum() else "_" for c in name.lower())
        merchant = Merchant(**{
            "external_onboarding_id": f"team-{slug}", "pan": "", "display_name": name,
            "status": status, "create_state": CreateState.CREATED,
            "onboarding_id": f"pg_onboard_{slug}", "checklist": {},
            "documents_outstanding": [], "created_at": clock.utcnow(),
            "last_activity_at": clock.utcnow(),
            "owner_id": find_user(owner).id if owner else None, **columns})
        db.session.add(merchant)
        db.session.commit()
        return merchant.id


def notices_of(app: Flask, email: str) -> list[Notice]:
    """The notices of the user with ``email``, oldest first, detached."""
    with app.app_context():
        rows = list(db.session.scalars(select(Notice).where(
            Notice.user_id == find_user(email).id).order_by(Notice.id)))
        db.session.expunge_all()
        return rows


def audited(app: Flask, action: str) -> list[AuditEvent]:
    """The audit events of ``action``, oldest first, detached."""
    with app.app_context():
        rows = list(db.session.scalars(select(AuditEvent).where(AuditEvent.action == action)
                                       .order_by(AuditEvent.id)))
        db.session.expunge_all()
        return rows


def page(response) -> BeautifulSoup:
    """An answer's page, parsed."""
    return BeautifulSoup(response.data, "html.parser")


def words(element) -> str:
    """An element's text as it reads: words separated by single spaces."""
    return " ".join(element.get_text(" ").split())


def errors_beside(soup: BeautifulSoup, field: str) -> list[str]:
    """The errors shown beside the field with id ``field``."""
    block = soup.find(id=field).find_parent(class_="field")
    return [li.get_text(" ", strip=True) for li in block.select(".field__errors li")]
