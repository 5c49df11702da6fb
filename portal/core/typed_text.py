"""What any typed value may hold, wherever it is typed (a form's field, a bulk file's cell):
no control characters. A NUL cannot be stored by PostgreSQL at all, and none of them has a
meaning in a name, an id or an address; tab and line breaks are text and stay allowed."""

from __future__ import annotations

import re

#: Unicode's control characters (category Cc: C0, DEL and C1) but tab, line feed and return.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
CONTROL_CHARACTER = ("This holds an invisible control character (such as a NUL byte), which "
                     "cannot be stored: type it again, or paste it as plain text.")


def control_character_problem(value: str) -> str | None:
    """Why ``value`` cannot be taken as typed (it holds a control character), or None."""
    return CONTROL_CHARACTER if CONTROL.search(value) else None


def without_control_characters(text: str) -> str:
    """``text`` with its control characters left out: for a value nobody typed into a field
    (an uploaded file's name), kept but never refused."""
    return CONTROL.sub("", text)
