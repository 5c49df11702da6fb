"""The website check against real pages served on loopback: the address guard (after DNS and
on every redirect), robots.txt, the time and size limits, and what a page is read to show."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import urllib3

from portal.core.public_address import Refused, checked_addresses
from portal.domain.website_check import fetch
from portal.domain.website_check.fetch import fetch_page
from portal.domain.website_check.job import check_website
from portal.domain.website_check.reading import read_page
from tests.support.servers import serve, silent_address
from tests.support.websites import HOME, Pages, site


@contextmanager
def serving(pages: Pages) -> Iterator[str]:
    with serve(site(pages)) as url:
        yield url


@pytest.mark.parametrize("address", ["10.0.0.1", "192.168.1.5", "172.16.0.1", "169.254.169.254",
                                     "100.64.0.1", "240.0.0.1", "fc00::1", "fe80::1"])
def test_private_link_local_and_reserved_addresses_are_refused(address):
    with pytest.raises(Refused, match="not a public one"):
        checked_addresses(address, 80, allow_loopback=True)


def test_loopback_is_refused_unless_the_setting_allows_it():
    with pytest.raises(Refused):
        checked_addresses("127.0.0.1", 80, allow_loopback=False)
    with pytest.raises(Refused):
        checked_addresses("localhost", 80, allow_loopback=False)  # after the name is resolved
    assert checked_addresses("127.0.0.1", 80, allow_loopback=True) == ["127.0.0.1"]
    with pytest.raises(Refused):
        checked_addresses("::1", 80, allow_loopback=False)
    assert checked_addresses("8.8.8.8", 443, allow_loopback=False) == ["8.8.8.8"]


def test_a_loopback_page_is_fetched_only_with_the_setting():
    with serving({"/": ("200 OK", {}, HOME)}) as url:
        with pytest.raises(Refused):
            fetch_page(url)
        page = fetch_page(url, allow_loopback=True)
    assert page.status == 200 and "Chai Point Traders" in page.text


@pytest.mark.parametrize("target", ["http://10.0.0.1/", "http://169.254.169.254/latest/"])
def test_every_redirect_is_checked_again(target):
    with serving({"/": ("302 Found", {"Location": target}, "")}) as url, \
            pytest.raises(Refused, match="not a public one"):
        fetch_page(url, allow_loopback=True)


def test_redirects_within_the_site_are_followed_but_not_for_ever():
    pages = {"/": ("301 Moved", {"Location": "/shop"}, ""), "/shop": ("200 OK", {}, HOME),
             "/loop": ("302 Found", {"Location": "/loop"}, "")}
    with serving(pages) as url:
        assert fetch_page(url, allow_loopback=True).url == f"{url}/shop"
        with pytest.raises(Refused, match="redirects more than"):
            fetch_page(f"{url}/loop", allow_loopback=True)


def test_a_page_over_the_size_limit_is_refused(monkeypatch):
    monkeypatch.setattr(fetch, "MAX_BYTES", 1000)
    with serving({"/": ("200 OK", {}, "x" * 5000)}) as url, \
            pytest.raises(Refused, match="larger than 1,000 bytes"):
        fetch_page(url, allow_loopback=True)


def test_a_site_that_never_answers_is_given_up(monkeypatch):
    monkeypatch.setattr(fetch, "TIMEOUT", urllib3.Timeout(connect=1.0, read=0.2))
    with silent_address() as url, pytest.raises(Refused, match="could not be reached"):
        fetch_page(url, allow_loopback=True)


def test_robots_txt_is_honoured():
    pages = {"/": ("200 OK", {}, HOME),
             "/robots.txt": ("200 OK", {}, "User-agent: *\nDisallow: /\n")}
    with serving(pages) as url:
        result = check_website(url, ["Chai Point"], allow_loopback=True)
    assert "robots.txt" in result["error"] and result["links"] == {}


def test_a_site_without_a_refund_page_is_reported_so_with_the_links_it_has():
    with serving({"/": ("200 OK", {}, HOME)}) as url:
        result = check_website(url, ["Chai Point", ""], allow_loopback=True)
    assert result["error"] == ""
    assert result["links"] == {"privacy": f"{url}/privacy", "terms": f"{url}/terms-of-service",
                               "shipping": f"{url}/shipping", "contact": f"{url}/contact"}
    assert result["facts"] == ["name", "prices"]
    assert result["missing"] == ["a refund policy page"]
    assert result["https"] is False


def test_prices_and_the_name_are_looked_for_in_the_visible_text_only():
    reading = read_page("<script>var price='Rs. 10'; var n='Chai Point'</script><p>Hello</p>",
                        "https://chai.example/", ["Chai Point"])
    assert reading.facts == frozenset()
    assert "prices shown" in reading.missing() and "the trade or registered name shown" in \
        reading.missing()
