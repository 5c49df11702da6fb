"""What the pages show of ownership: the merchant summary's owner and notes, and who may be
offered as a new owner to whom."""

from __future__ import annotations

from dataclasses import dataclass

from portal.core.db import db
from portal.core.models.merchant import Merchant
from portal.core.models.note import MerchantNote
from portal.core.models.user import Role, User
from portal.domain.ownership.notes import SHOWN, note_count, notes_of
from portal.domain.ownership.service import colleagues
from portal.features.ownership.forms import NoteForm, OwnerForm, TakeForm


@dataclass(frozen=True)
class Panel:
    """The summary's "Owner and notes" card for one viewer."""

    owner: User | None
    notes: list[MerchantNote]
    note_total: int
    #: The viewer may take it (nobody owns it and they are ops), or hand it on / change it.
    take_form: TakeForm | None
    may_change: bool
    note_form: NoteForm


def may_change(viewer: User, merchant: Merchant) -> bool:
    """Whether ``viewer`` may give the merchant to someone: an admin, or its owner."""
    return viewer.role == Role.ADMIN or merchant.owner_id == viewer.id


def owner_of(merchant: Merchant) -> User | None:
    """The merchant's owner, or None."""
    return db.session.get(User, merchant.owner_id) if merchant.owner_id is not None else None


def panel(merchant: Merchant, viewer: User, note_form: NoteForm | None = None) -> Panel:
    """The card's content: three statements (the owner, the newest notes, their count)."""
    take = merchant.owner_id is None and viewer.role != Role.ADMIN
    return Panel(owner_of(merchant), notes_of(merchant, SHOWN), note_count(merchant),
                 TakeForm() if take else None, may_change(viewer, merchant),
                 note_form or NoteForm())


def owner_form(merchant: Merchant, viewer: User) -> OwnerForm:
    """The form offering new owners: anyone active, or nobody, to an admin; colleagues to the
    owner."""
    form = OwnerForm(expected=str(merchant.owner_id or ""))
    admin = viewer.role == Role.ADMIN
    form.offer([u for u in colleagues() if u.id != merchant.owner_id and (admin or
                                                                         u.id != viewer.id)],
               nobody=admin and merchant.owner_id is not None)
    return form
