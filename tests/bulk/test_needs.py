"""The import's report of what each merchant it created still needs, on its page and as CSV,
from each merchant's requirements checklist."""

from __future__ import annotations

import csv
import io

from bs4 import BeautifulSoup

from tests.bulk.support import EXAMPLE, finished, upload


def test_each_row_says_what_its_merchant_still_needs_on_the_page_and_in_the_csv(auth, client,
                                                                             sandbox):
    auth.login("admin")
    location = upload(client, EXAMPLE.read_bytes()).headers["Location"]
    assert finished(client, location)["state"] == "finished"
    page = BeautifulSoup(client.get(location).data, "html.parser")
    rows = page.select(".bulk-needs tbody tr")
    assert len(rows) == 10
    first = rows[0].select("td[data-label='Still needed'] li")
    assert first, "the first merchant still needs something"
    words = [li.get_text(" ", strip=True) for li in first]
    assert "The certificate of incorporation (COI)" in words  # a company, no documents came
    assert "Each beneficial owner's Aadhaar" in words
    assert not any("bank account's details" in w for w in words)  # step 4 was sent

    link = page.find("a", string="Download it for every row (CSV)")
    response = client.get(link["href"])
    assert "attachment" in response.headers["Content-Disposition"]
    table = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert table[0] == ["row", "external id", "merchant", "still needed"]
    assert len(table) == 11
    assert table[1][3] == "; ".join(words)
