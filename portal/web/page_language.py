"""The language a page is drawn in (Flask-Babel): English, unless a merchant-facing route
chose the merchant's (:func:`use`); staff pages never choose, so they stay English.

Templates get ``_()`` (Jinja's i18n, new style: ``_("Pay %(amount)s", amount=...)``),
``languages`` (the table, for the switch) and ``page_language`` (the code in force).
"""

from __future__ import annotations

from flask import Flask, g, request
from flask_babel import Babel, refresh

from portal.core.config_fields import ROOT
from portal.core.languages import BY_CODE, DEFAULT, LANGUAGES, known

#: Where the catalogues are: ``<code>/LC_MESSAGES/messages.po`` and its compiled ``.mo``.
TRANSLATIONS = ROOT / "translations"
babel = Babel()


def register(app: Flask) -> None:
    """Bind Flask-Babel to ``app``, the page's language read from :func:`current`."""
    app.config["BABEL_DEFAULT_LOCALE"] = DEFAULT
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS)
    babel.init_app(app, locale_selector=current)
    app.context_processor(lambda: {"languages": LANGUAGES, "page_language": current()})


def current() -> str:
    """The language of the page being drawn: the one a route chose, else English."""
    return g.get("page_language", DEFAULT)


def use(code: str | None) -> str:
    """Draw this request's page (and its messages) in ``code``, a language of the table, else
    English; the code in force."""
    g.page_language = known(code)
    refresh()
    return g.page_language


def use_browsers() -> str:
    """Draw the page in the language the browser prefers among the table's (a refusal page,
    which knows no merchant to read a choice from)."""
    return use(request.accept_languages.best_match(BY_CODE, default=DEFAULT))
