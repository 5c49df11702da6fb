"""Every form of the portal derives from ``portal.web.form_base.PortalForm``, so every typed
value, in every form there is or will be, is refused beside its field when it holds a control
character."""

from __future__ import annotations

from pathlib import Path

from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, StringField, TextAreaField

from portal.app import factory  # noqa: F401  (imports every feature, and so every form)
from portal.core.typed_text import CONTROL_CHARACTER, LINE_BREAK_HELD
from portal.web.form_base import PortalForm, refuse_control_characters

PORTAL = Path(__file__).resolve().parents[2] / "portal"


def every_subclass(cls: type) -> set[type]:
    """``cls``'s subclasses, at any depth."""
    found = set(cls.__subclasses__())
    return found.union(*(every_subclass(sub) for sub in found)) if found else found


def test_every_form_class_is_a_portal_form():
    forms = {cls for cls in every_subclass(FlaskForm) if cls.__module__.startswith("portal.")}
    assert len(forms) > 20
    assert {f"{cls.__module__}.{cls.__name__}" for cls in forms
            if not issubclass(cls, PortalForm)} == set()


def test_only_the_base_names_flask_wtfs_form():
    naming = sorted(str(path.relative_to(PORTAL)) for path in PORTAL.rglob("*.py")
                    if "FlaskForm" in path.read_text(encoding="utf-8")
                    and "sandbox" not in path.parts)
    assert naming == ["web/form_base.py"]


class _Row(Form):
    name = StringField()


class _Nested(Form):
    title = StringField()
    rows = FieldList(FormField(_Row), min_entries=2)
    tags = FieldList(StringField(), min_entries=1)


def test_nested_forms_rows_and_lists_are_checked_too():
    form = _Nested(data={"title": "ok", "rows": [{"name": "fine"}, {"name": "bad\x00"}],
                         "tags": ["also\x07bad"]})
    form.validate()
    assert refuse_control_characters(form) is False
    assert form.title.errors == []
    assert form.rows.entries[1].form.name.errors == [CONTROL_CHARACTER]
    assert form.tags.entries[0].errors == [CONTROL_CHARACTER]


class _Lines(Form):
    name = StringField()
    note = TextAreaField()


def test_a_line_break_is_refused_in_a_one_line_field_and_kept_in_a_text_area():
    form = _Lines(data={"name": "Chai\r\nPoint", "note": "two\r\nlines"})
    form.validate()
    assert refuse_control_characters(form) is False
    assert form.name.errors == [LINE_BREAK_HELD]
    assert form.note.errors == []
