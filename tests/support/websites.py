"""Merchants' websites served on loopback for the website check's tests: real pages, each
path with its status, headers and body."""

from __future__ import annotations

from collections.abc import Callable

#: A shop whose home page links every page but the refund policy.
HOME = """<html><head><title>Chai Point</title><style>.x{}</style></head><body>
<h1>Chai Point Traders</h1><p>Masala chai, 250 g: ₹ 349</p>
<a href="/privacy">Privacy policy</a> <a href="/terms-of-service">Terms</a>
<a href="/shipping">Shipping &amp; delivery</a> <a href="/contact">Contact us</a>
<a href="mailto:refunds@chai.example">refunds</a></body></html>"""
Pages = dict[str, tuple[str, dict[str, str], str]]


def site(pages: Pages) -> Callable:
    """A WSGI app answering each path with its (status, headers, body); else 404."""
    def app(environ, start_response):
        status, headers, body = pages.get(environ["PATH_INFO"], ("404 Not Found", {}, ""))
        start_response(status, [("Content-Type", "text/html; charset=utf-8"), *headers.items()])
        return [body.encode()]
    return app
