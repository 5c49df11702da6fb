"""The base layout, the form-field macro and the error pages."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from flask import Blueprint, Flask, render_template_string
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired

from portal.core.config_fields import ROOT
from portal.core.db import db
from portal.core.models import Role, User
from tests.support.accounts import AuthActions

INLINE_CODE = re.compile(r"<style|\sstyle=|<script(?![^>]*\ssrc=)|\son[a-z]+=", re.IGNORECASE)


def _page(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def _failing_routes(app: Flask) -> None:
    bp = Blueprint("failing", __name__)

    @bp.get("/boom")
    def boom():
        raise RuntimeError("secret internals: /etc/portal")

    @bp.get("/duplicate-user")
    def duplicate_user():
        db.session.add(User(email="ops@example.com", password_hash="x", role=Role.OPS.value))
        db.session.flush()

    app.register_blueprint(bp)
    app.config["PROPAGATE_EXCEPTIONS"] = False


@pytest.mark.parametrize("template", sorted(p.relative_to(ROOT / "templates").as_posix()
                                            for p in (ROOT / "templates").rglob("*.html")))
def test_templates_have_no_inline_styles_or_scripts(template):
    assert not INLINE_CODE.search((ROOT / "templates" / template).read_text())


def test_layout_for_a_signed_in_user(csrf_app, csrf_client):
    AuthActions(csrf_app, csrf_client).login(role="admin")
    page = _page(csrf_client.get("/no-such-page"))
    assert page.html["lang"] == "en"
    assert page.select_one("a.skip-link")["href"] == "#main"
    assert page.select_one("main#main")
    assert page.select_one("nav[aria-label=Main] a").get_text() == "Needs my action"
    assert "admin@example.com" in page.select_one(".account").get_text()
    assert "admin" in page.select_one(".account .badge").get_text()
    logout = page.select_one("form.account__logout")
    assert logout["method"] == "post"
    assert logout.find("input", {"name": "csrf_token"})["value"]


def test_anonymous_layout_has_no_account_menu(client):
    page = _page(client.get("/login"))
    assert page.select_one(".account") is None
    assert page.select_one("nav") is None


def test_flash_messages_carry_their_category(auth, client):
    page = _page(auth.login(password="wrong password"))
    flash = page.select_one(".flash")
    assert "flash--error" in flash["class"]
    assert flash["role"] == "alert"


class _ExampleForm(FlaskForm):
    pan = StringField("PAN", validators=[DataRequired()])


def test_render_field_ties_help_example_and_errors_to_the_input(app):
    with app.test_request_context(method="POST", data={"pan": ""}):
        form = _ExampleForm()
        form.validate()
        html = render_template_string(
            '{% from "_forms.html" import render_field %}'
            '{{ render_field(form.pan, help="As printed on the card.", example="ABCPE1234F",'
            ' autocomplete="off") }}', form=form)
    page = BeautifulSoup(html, "html.parser")
    field = page.select_one("input#pan")
    assert field["aria-describedby"] == "pan-help pan-example pan-errors"
    assert field["aria-invalid"] == "true"
    assert field["autocomplete"] == "off"
    assert page.select_one("label[for=pan]").get_text() == "PAN"
    assert page.select_one("#pan-help").get_text() == "As printed on the card."
    assert "ABCPE1234F" in page.select_one("#pan-example").get_text()
    assert "This field is required." in page.select_one("#pan-errors").get_text()


def test_render_field_without_notes_has_no_describedby(app):
    with app.test_request_context():
        html = render_template_string(
            '{% from "_forms.html" import render_field %}{{ render_field(form.pan) }}',
            form=_ExampleForm())
    field = BeautifulSoup(html, "html.parser").select_one("input#pan")
    assert not field.has_attr("aria-describedby")
    assert not field.has_attr("aria-invalid")


def test_not_found_answers_html_or_json(auth, client):
    auth.login()
    assert "Page not found" in _page(client.get("/nowhere")).h1.get_text()
    response = client.get("/nowhere", headers={"Accept": "application/json"})
    assert (response.status_code, response.json["error"]) == (404, "not_found")


def test_server_error_reveals_nothing(app, auth, client):
    _failing_routes(app)
    auth.login()
    html = client.get("/boom")
    assert html.status_code == 500
    assert "Something went wrong" in html.get_data(as_text=True)
    json_answer = client.get("/boom", headers={"Accept": "application/json"})
    assert json_answer.status_code == 500
    assert json_answer.json["error"] == "internal_server_error"
    for response in (html, json_answer):
        assert "secret internals" not in response.get_data(as_text=True)
        assert "RuntimeError" not in response.get_data(as_text=True)


def test_server_error_rolls_back_so_the_page_still_renders(app, auth, client):
    _failing_routes(app)
    auth.login()
    response = client.get("/duplicate-user")
    assert response.status_code == 500
    assert "ops@example.com" in _page(response).select_one(".account").get_text()


@pytest.mark.parametrize(("role", "labels"), [
    ("ops", ["Needs my action", "Merchants", "Payments", "Notices"]),
    ("admin", ["Needs my action", "Merchants", "Payments", "Notices", "Dashboard",
               "Bulk import", "Team", "Emails", "Branding", "Approvals", "API keys",
               "Webhooks out", "Mailbox"]),  # the mailbox
    # while the portal talks to the sandbox
])
def test_navigation_shows_the_sections_of_the_role(client, auth, role, labels):
    auth.login(role=role)
    nav = BeautifulSoup(client.get("/payments").data, "html.parser").find("nav")
    assert [a.get_text(strip=True) for a in nav.find_all("a")] == labels
    assert [a.get_text(strip=True) for a in nav.find_all("a", attrs={"aria-current": "page"})] \
        == ["Payments"]


def test_navigation_marks_the_most_specific_section(client, auth):
    auth.login(role="admin")
    nav = BeautifulSoup(client.get("/admin/bulk/").data, "html.parser").find("nav")
    assert [a.get_text(strip=True) for a in nav.find_all("a", attrs={"aria-current": "page"})] \
        == ["Bulk import"]


def test_the_favicon_is_served_to_anyone(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/vnd.microsoft.icon"
    assert response.data[:4] == b"\x00\x00\x01\x00"  # an icon file, one image
    response.close()
