"""Reading a merchant's home page for what the gateway's website due diligence asks for
(docs/gateway-facts.md A4; the requirements page's "Website due diligence"): privacy, refund,
terms and shipping pages, a contact page, prices shown, the trade or registered name shown.
A page is found by a link whose words or address name it; prices by an amount written with a
currency; the name by its words in the page's text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

#: What is looked for, in the order reported: key -> (words, what names it in a link).
PAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "privacy": ("a privacy policy page", ("privacy",)),
    "refund": ("a refund policy page", ("refund", "return", "cancellation")),
    "terms": ("a terms and conditions page", ("terms", "conditions", "t&c", "tos")),
    "shipping": ("a shipping or delivery policy page", ("shipping", "delivery")),
    "contact": ("a contact page", ("contact",)),
}
FACTS = {"prices": "prices shown", "name": "the trade or registered name shown"}
#: An amount with its currency: ₹ 1,499, Rs. 250, INR 99.00, $ 12, 12 USD.
_PRICE = re.compile(r"(?:₹|rs\.?|inr|usd|\$|€|£)\s?[0-9][0-9,]*(?:\.[0-9]{1,2})?"
                    r"|[0-9][0-9,]*(?:\.[0-9]{1,2})?\s?(?:₹|inr|usd|rupees)", re.IGNORECASE)


class _Page(HTMLParser):
    """The links (address and words) and the visible text of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._href: str | None = None
        self._words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        if tag == "a":
            self._href = dict(attrs).get("href") or ""
            self._words = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1
        if tag == "a" and self._href is not None:
            self.links.append((self._href, " ".join(self._words)))
            self._href = None

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        self.text.append(data)
        if self._href is not None:
            self._words.append(data.strip())


@dataclass(frozen=True)
class Reading:
    """What the page showed: each page found with its link, and the facts found."""

    links: dict[str, str] = field(default_factory=dict)
    facts: frozenset[str] = frozenset()

    def missing(self) -> list[str]:
        """What was looked for and not found, in words."""
        return [words for key, (words, _) in PAGES.items() if key not in self.links] + \
            [words for key, words in FACTS.items() if key not in self.facts]


def read_page(html: str, base_url: str, names: list[str]) -> Reading:
    """Read ``html`` (fetched from ``base_url``) for the pages and facts; ``names`` are the
    merchant's trade and registered names (either shown counts)."""
    page = _Page()
    page.feed(html)
    links: dict[str, str] = {}
    for key, (_, cues) in PAGES.items():
        for href, words in page.links:
            said = f"{words} {href}".lower()
            if any(cue in said for cue in cues) and not href.startswith(("mailto:", "#")):
                links[key] = urljoin(base_url, href)
                break
    text = " ".join(" ".join(page.text).split())
    facts = set()
    if _PRICE.search(text):
        facts.add("prices")
    if any(name and name.lower() in text.lower() for name in names):
        facts.add("name")
    return Reading(links, frozenset(facts))
