"""A tiny form-filling browser over the Flask test client: what a person does, without JS."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bs4 import BeautifulSoup, Tag
from werkzeug.test import TestResponse


@dataclass
class Page:
    """A fetched page: the response and its parsed HTML."""

    response: TestResponse
    soup: BeautifulSoup

    def form(self, selector: str = "form.step-form") -> Tag:
        """The first form matching ``selector``."""
        found = self.soup.select_one(selector)
        assert found is not None, f"no {selector} on the page"
        return found

    def errors_for(self, name: str) -> list[str]:
        """The error messages shown beside the input named ``name``."""
        field = self.soup.find(attrs={"name": name})
        assert isinstance(field, Tag), f"no field {name}"
        box = field.find_parent(class_=["field", "field--choices"])
        assert box is not None
        return [li.get_text(strip=True) for li in box.select(".field__errors li")]

    def group_errors(self, group_id: str) -> list[str]:
        """Errors shown at the top of a fieldset (a list or sub-form)."""
        group = self.soup.find(id=group_id)
        assert isinstance(group, Tag), f"no group {group_id}"
        return [p.get_text(strip=True) for p in group.find_all(class_="group__error",
                                                              recursive=False)]

    def top_errors(self) -> list[str]:
        """Errors shown above the form."""
        return [li.get_text(strip=True) for li in self.soup.select(".form-errors li")]

    def text(self) -> str:
        """The page's text, whitespace collapsed."""
        return " ".join(self.soup.get_text(" ").split())

    def step_states(self) -> dict[str, str]:
        """The stepper: step key -> state."""
        return {li["data-step"]: li["data-state"] for li in self.soup.select(".stepper__step")}


def form_values(form: Tag) -> dict[str, Any]:
    """What the browser would post for ``form`` as it stands (no button pressed)."""
    values: dict[str, Any] = {}
    for field in form.find_all(["input", "select", "textarea"]):
        name = field.get("name")
        if not name:
            continue
        if field.name == "select":
            chosen = field.find("option", selected=True) or field.find("option")
            values[name] = chosen.get("value", "") if chosen else ""
        elif field.name == "textarea":
            values[name] = field.get_text()
        elif field.get("type") in ("checkbox", "radio"):
            if field.has_attr("checked"):
                values.setdefault(name, []).append(field.get("value", "y"))
        elif field.get("type") not in ("submit", "file", "button"):
            values[name] = field.get("value", "")
    return {k: v[0] if isinstance(v, list) and len(v) == 1 and k != "products" else v
            for k, v in values.items()}


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Nested form data as field names: ``{'contact': {'email': x}}`` -> ``contact-email``."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(flatten(value, f"{prefix}-{key}" if prefix else key))
        return out
    if isinstance(data, list) and all(isinstance(v, dict) for v in data) and data:
        out = {}
        for index, value in enumerate(data):
            out.update(flatten(value, f"{prefix}-{index}"))
        return out
    if data is True:
        return {prefix: "y"}
    if data is False or data is None:
        return {prefix: None}
    return {prefix: data}


class Browser:
    """Get pages and submit their forms with some fields changed."""

    def __init__(self, client) -> None:
        self.client = client

    def get(self, url: str) -> Page:
        """Fetch and parse a page."""
        response = self.client.get(url)
        return Page(response, BeautifulSoup(response.data, "html.parser"))

    def submit(self, page: Page, changes: dict[str, Any] | None = None, action: str = "send",
               selector: str = "form.step-form", url: str | None = None) -> Page:
        """Post a form as shown with ``changes`` (None unticks) and a button; follow redirects."""
        form = page.form(selector)
        values = form_values(form)
        for name, value in (changes or {}).items():
            if value is None:
                values.pop(name, None)
            else:
                values[name] = value
        if action:
            values["action"] = action
        target = url or form.get("action") or page.response.request.path
        response = self.client.post(target, data=values, follow_redirects=True)
        return Page(response, BeautifulSoup(response.data, "html.parser"))
