"""The words of every error page, one row per HTTP status: what the browser's tab says, the
heading and what to do next. A status without its row reads as the nearest kind (a 4xx as a
request that could not be used), never as the library's English."""

from __future__ import annotations

from dataclasses import dataclass

from werkzeug.exceptions import HTTPException


@dataclass(frozen=True)
class ErrorWords:
    """An error page's title, heading and message."""

    title: str
    heading: str
    message: str


_HOME = "start again from the portal's first page"
WORDS: dict[int, ErrorWords] = {
    400: ErrorWords("Bad request", "The request could not be used",
                    "The form may have expired. Go back, reload the page and try again."),
    401: ErrorWords("Sign in", "Sign in first",
                    "This page is for signed-in users. Sign in and open it again."),
    403: ErrorWords("Not allowed", "Not allowed",
                    "Your role does not give access to this page. Ask an administrator if you "
                    "need it."),
    404: ErrorWords("Not found", "Page not found",
                    "There is nothing at this address. Check the link or start again from the "
                    "merchants list."),
    405: ErrorWords("Not this way", "This address does not take that kind of request",
                    f"It is reached through a button on one of the portal's pages: {_HOME}."),
    406: ErrorWords("Not available", "The page cannot be shown in that form",
                    f"Open it in a web browser, or {_HOME}."),
    408: ErrorWords("Too slow", "The request took too long to arrive",
                    "Check your connection and try again."),
    409: ErrorWords("Changed meanwhile", "Something changed while you were working",
                    "Reload the page to see it as it is now, then try again."),
    410: ErrorWords("Gone", "This is no longer here",
                    f"It was removed or has expired: {_HOME}."),
    412: ErrorWords("Changed meanwhile", "Something changed while you were working",
                    "Reload the page to see it as it is now, then try again."),
    413: ErrorWords("Too large", "The file or form is too large",
                    "Go back and send a smaller file; the page says the largest it takes."),
    414: ErrorWords("Address too long", "The address is too long",
                    f"Check the link, or {_HOME}."),
    415: ErrorWords("Not a file the portal takes", "The portal cannot read what was sent",
                    "Go back and send it from the portal's own form."),
    422: ErrorWords("Not accepted", "What was sent could not be accepted",
                    "Go back, check what you entered and try again."),
    423: ErrorWords("Locked", "This is locked for now",
                    "Someone else is changing it. Wait a moment and try again."),
    429: ErrorWords("Too many requests", "Too many requests in a short time",
                    "Wait a minute, then try again."),
    431: ErrorWords("Bad request", "The request could not be used",
                    "Clear this site's cookies in your browser, then sign in again."),
    500: ErrorWords("Something went wrong", "Something went wrong",
                    "The portal could not finish this request and nothing was changed. Try "
                    "again; if it keeps happening, tell the portal's administrator."),
}
_CLIENT, _SERVER = WORDS[400], WORDS[500]


def words_for(error: HTTPException) -> ErrorWords:
    """The page's words for ``error``. A description the portal gave when it refused
    (``abort(409, "...")``) is its message; the library's own descriptions never are."""
    code = error.code or 500
    words = WORDS.get(code, _CLIENT if code < 500 else _SERVER)
    given = error.description
    if given and given != type(error).description:
        return ErrorWords(words.title, words.heading, str(given))
    return words
