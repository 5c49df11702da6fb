"""The merchant's ZIP export (a data-access request) with payments: the hosted-checkout link
and its token, and the pre-authenticated status URL, are the gateway's secrets, not the
merchant's data, and stay out."""

from __future__ import annotations

import io
import json
import zipfile
from urllib.parse import parse_qs, urlsplit

from tests.payments.support import payment_row, post_hold


def test_the_export_leaves_out_checkout_links_and_tokens(app, browser, merchant_id,
                                                         credentials):
    hosted = post_hold(browser, merchant_id).headers["Location"]
    token = parse_qs(urlsplit(hosted).query)["x-gl-token"][0]
    payment = payment_row(app, 1)
    response = browser.client.post(f"/merchants/{merchant_id}/export")
    body = response.data
    response.close()
    assert response.status_code == 200
    text = zipfile.ZipFile(io.BytesIO(body)).read("merchant.json").decode()
    [exported] = json.loads(text)["payments"]
    assert exported["merchant_txn_id"] == payment.merchant_txn_id  # the payment itself is there
    assert "redirect_url" not in exported and "status_url" not in exported
    for secret in ("x-gl-token", token, hosted, payment.status_url or "x-gl-token"):
        assert secret not in text  # the docs' initiate answer gives no statusUrl
