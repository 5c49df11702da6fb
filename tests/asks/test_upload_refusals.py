"""The merchant's upload on their link goes through the documents step's checks: a file of
the wrong kind or over the limit is refused in words beside the file (in the merchant's
language), nothing kept; the link's token opens its own merchant's asks only."""

from __future__ import annotations

import io

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import func, select

from portal.core.config import SETTINGS_EXTENSION
from portal.core.db import db
from portal.core.models.document import StoredDocument
from tests.asks.support import PDF, asked_merchant, asks_on, link_page, post_upload
from tests.verification.support import merchant_link

#: The upload limit of these tests (the settings' default is 5 MB).
LIMIT = 2000


def _kept(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(StoredDocument).where(
            StoredDocument.link_id.is_not(None)))


def _error_beside_file(response) -> str:
    assert response.status_code == 400
    soup = BeautifulSoup(response.data, "html.parser")
    field = soup.select_one("form.ask__form input[type=file]")
    assert field["aria-invalid"] == "true"
    errors = soup.select_one(f"#{field['aria-describedby']}")
    assert errors is not None and errors.find_parent("div", class_="field") is \
        field.find_parent("div", class_="field")
    return errors.get_text(" ", strip=True)


@pytest.mark.parametrize(("language", "content", "name", "words"), [
    ("en", b"<html>not a statement</html>", "statement.pdf",
     "Only PDF, JPEG and PNG files are accepted, judged by their content"),
    ("en", PDF + b"0" * LIMIT, "statement.pdf",
     "The file is larger than the limit of 2,000 bytes"),
    ("en", b"", "statement.pdf", "Choose a file to upload."),
    ("hi", b"<html>not a statement</html>", "statement.pdf", "केवल PDF, JPEG और PNG फ़ाइलें"),
    ("hi", PDF + b"0" * LIMIT, "statement.pdf", "फ़ाइल 2,000 bytes की सीमा से बड़ी है"),
])
def test_a_refused_upload_says_why_beside_the_file(app, client, auth, sandbox, language,
                                                   content, name, words):
    app.extensions[SETTINGS_EXTENSION] = app.extensions[SETTINGS_EXTENSION].with_changes(
        upload_max_bytes=LIMIT)
    auth.login("ops")
    merchant_id = asked_merchant(app, client, sandbox)
    path = merchant_link(app, merchant_id)
    merchant = app.test_client()
    link_page(merchant, path)
    merchant.post(path.replace("?", "/language?"), data={"language": language})
    soup = link_page(merchant, path)
    response = post_upload(merchant, path, soup, content, name if content else "")
    assert words in _error_beside_file(response)
    assert _kept(app) == 0
    assert asks_on(link_page(merchant, path))[0][0] == "asked"


def test_a_token_opens_its_own_merchants_asks_only(app, client, auth, sandbox):
    auth.login("ops")
    first = asked_merchant(app, client, sandbox)
    second = asked_merchant(app, client, sandbox)
    first_path, second_path = merchant_link(app, first), merchant_link(app, second)
    merchant = app.test_client()
    second_soup = link_page(merchant, second_path)
    second_form = second_soup.select_one("form.ask__form")
    token = first_path.split("token=", 1)[1]

    # the first merchant's token on the second's address: refused, nothing kept
    other = merchant.post(f"/verify/{second}/documents?token={token}", data={
        "ask": second_form.select_one("input[name=ask]")["value"],
        "file": (io.BytesIO(PDF), "statement.pdf")}, content_type="multipart/form-data")
    assert other.status_code == 403
    # the second merchant's ask posted with the first's token: no ask of the first's
    crossed = merchant.post(f"/verify/{first}/documents?token={token}", data={
        "ask": second_form.select_one("input[name=ask]")["value"],
        "file": (io.BytesIO(PDF), "statement.pdf")}, content_type="multipart/form-data")
    assert crossed.status_code == 303
    assert _kept(app) == 0
    # each merchant's own upload lands on that merchant only
    assert post_upload(merchant, second_path, second_soup, PDF, "s.pdf").status_code == 303
    with app.app_context():
        assert [d.merchant_id for d in db.session.scalars(
            select(StoredDocument).where(StoredDocument.link_id.is_not(None)))] == [second]
