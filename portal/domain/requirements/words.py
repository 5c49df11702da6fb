"""The requirements table's rows in words, in the language in force: a merchant's, or English
on staff pages (the table keeps English; its words are in the catalogues, marked ``N_``)."""

from __future__ import annotations

from flask_babel import gettext as _

from portal.domain.requirements.table import Requirement


def in_words(row: Requirement) -> str:
    """The row's words, and when it applies, in the page's or the email's language (English
    on staff pages)."""
    words = _(row.words)
    if not row.when:
        return words
    return _("%(words)s (%(when)s)", words=words, when=_(row.when))
