"""What differs between a step's stored draft and what someone typed, field by field."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from wtforms import Field, FieldList, FormField
from wtforms.form import BaseForm

from portal.features.wizard.forms import StepForm
from portal.features.wizard.pages import shown

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Difference:
    """One field whose stored value ('theirs') is not what was submitted ('yours')."""

    label: str
    theirs: str
    yours: str

    def __str__(self) -> str:
        return f"{self.label}: theirs '{self.theirs}' / yours '{self.yours}'"


def differences(form: StepForm, stored: dict[str, Any]) -> list[Difference]:
    """Every field whose value in ``stored`` differs from the form's, in the form's order."""
    mine = dict(leaves(form.payload()))
    theirs = dict(leaves(stored))
    paths = list(mine) + [path for path in theirs if path not in mine]
    return [Difference(label(form, path), *contrasted(str(path[-1]), theirs.get(path),
                                                       mine.get(path)))
            for path in paths if _blank(theirs.get(path)) != _blank(mine.get(path))]


def contrasted(name: str, theirs: Any, mine: Any) -> tuple[str, str]:
    """Two differing values as shown: masked, but never two identical texts.

    A PAN whose hidden part changed (the 4th letter, say) would mask to the same text twice;
    then the characters that differ are shown in both, the rest stays hidden.
    """
    shown_theirs, shown_mine = shown(name, theirs), shown(name, mine)
    if (shown_theirs != shown_mine or not isinstance(theirs, str) or not isinstance(mine, str)
            or len(theirs) != len(mine)):
        return shown_theirs, shown_mine
    return _reveal(shown_theirs, theirs, mine), _reveal(shown_mine, mine, theirs)


def _reveal(masked: str, value: str, other: str) -> str:
    """``masked`` with the characters where ``value`` differs from ``other`` unhidden."""
    return "".join(plain if hidden == "*" and plain != differing else hidden
                   for hidden, plain, differing in zip(masked, value, other, strict=True))


def leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Scalar values (and lists of scalars) of nested form data, with their paths."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list) and any(isinstance(item, dict) for item in value):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def label(form: StepForm, path: Path) -> str:
    """A path's labels joined, e.g. 'Registered address > City' or 'Beneficial owners 2 > PAN'."""
    parts: list[str] = []
    container: Any = form
    for part in path:
        field: Field | None = None
        if isinstance(container, FieldList) and isinstance(part, int):
            parts[-1] = f"{parts[-1]} {part + 1}" if parts else str(part + 1)
            field = container.entries[part] if part < len(container.entries) else None
        elif isinstance(container, BaseForm) and str(part) in container:
            field = container[str(part)]
            parts.append(field.label.text)
        else:
            parts.append(str(part))
        if field is None:
            break
        container = field.form if isinstance(field, FormField) else field
    return " > ".join(parts)


def _blank(value: Any) -> Any:
    """Blank values compare equal whatever their kind ('', None, [])."""
    return None if value in (None, "", []) else value
