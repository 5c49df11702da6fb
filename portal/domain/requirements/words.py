"""The requirements table's rows as a merchant reads them, in the language in force (the
table keeps English; its words are in the catalogues, marked with ``N_``)."""

from __future__ import annotations

from flask_babel import gettext as _

from portal.domain.requirements.table import Requirement


def merchant_words(row: Requirement) -> str:
    """The row's words, and when it applies, in the page's or the email's language."""
    words = _(row.words)
    if not row.when:
        return words
    return _("%(words)s (%(when)s)", words=words, when=_(row.when))
