"""What any typed value may hold, wherever it is typed (a form's field, a bulk file's cell):
no control characters. A NUL cannot be stored by PostgreSQL at all, and none of them has a
meaning in a name, an id or an address; tab and line breaks are text and stay allowed, but a
value typed on one line (a name, a subject: an ``<input>``, a bulk cell) holds no line break.
A value shown on one line (an email's header) is folded onto it (``one_line``)."""

from __future__ import annotations

import re

#: Unicode's control characters (category Cc: C0, DEL and C1) but tab, line feed and return.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: Line breaks: \n and \r (the rest of Cc is CONTROL's) and Unicode's line and paragraph
#: separators.
LINE_BREAK = re.compile("[\n\r\u2028\u2029]")
#: What ``one_line`` folds: every control character (Cc, tab and line breaks among them) and
#: the line and paragraph separators.
_FOLDED = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
LINE_BREAK_HELD = "Write this on one line: it cannot hold a line break."
CONTROL_CHARACTER = ("This holds an invisible control character (such as a NUL byte), which "
                     "cannot be stored: type it again, or paste it as plain text.")


def control_character_problem(value: str) -> str | None:
    """Why ``value`` cannot be taken as typed (it holds a control character), or None."""
    return CONTROL_CHARACTER if CONTROL.search(value) else None


def without_control_characters(text: str) -> str:
    """``text`` with its control characters left out: for a value nobody typed into a field
    (an uploaded file's name), kept but never refused."""
    return CONTROL.sub("", text)


def line_break_problem(value: str) -> str | None:
    """Why ``value``, typed on one line, cannot be taken (it holds a line break), or None."""
    return LINE_BREAK_HELD if LINE_BREAK.search(value) else None


def typed_problem(value: str, single_line: bool) -> str | None:
    """Why a typed ``value`` cannot be taken: a control character, or a line break in a value
    typed on one line (``single_line``); None when it can."""
    return control_character_problem(value) or (line_break_problem(value) if single_line
                                                 else None)


def one_line(text: str) -> str:
    """``text`` on one line: every control character and line break becomes a space, runs of
    spaces one. For a value shown on one line whatever it holds, such as a name stored before
    line breaks were refused, in an email's subject."""
    return " ".join(_FOLDED.sub(" ", text).split())
