"""What a log line may hold: email addresses masked as the audit masks a customer's, however a
URL escaped them, besides the PANs, digit runs and tokens ``redact_text`` masks."""

from __future__ import annotations

import pytest

from portal.core.redaction import masked_email, redact_log_text


@pytest.mark.parametrize(("text", "logged"), [
    ('"GET /payments?q=victim%40example.com HTTP/1.1" 200',
     '"GET /payments?q=v***@example.com HTTP/1.1" 200'),
    ("GET /payments/export.csv?q=victim@example.com&status=CAPTURED",
     "GET /payments/export.csv?q=v***@example.com&status=CAPTURED"),
    # the sign-in page's next: the search escaped a second time, its = escaped once
    ("GET /login?next=%2Fpayments%3Fq%3Dvictim%2540example.com",
     "GET /login?next=%2Fpayments%3Fq%3Dv***@example.com"),
    ("next=/payments?q%3Dvictim.name%252Borders%2540example.com HTTP/1.1",
     "next=/payments?q%3Dv***@example.com HTTP/1.1"),
    ("q=first%2Elast%2Btag%40Mail.Example.co.in&page=2", "q=f***@Mail.Example.co.in&page=2"),
    ("mail: sending to asha.k@example.com failed.", "mail: sending to a***@example.com failed."),
    ("user <admin@localhost> signed in", "user <a***@localhost> signed in"),
    ("GET /pay/3?token=Xq3vT8pLm2Rk9WcY4b", "GET /pay/3?token=[REDACTED]"),
    ("GET /payments/callback?x-gl-token=eyJhbGci.c2ln",
     "GET /payments/callback?x-gl-token=[REDACTED]"),
    ("next=%2Fteam%2Fwelcome%3Ftoken%253DeyJ1IjozfQ",
     "next=%2Fteam%2Fwelcome%3Ftoken%253D[REDACTED]"),
    ("GET /merchants?q=aakcs4321q HTTP/1.1", "GET /merchants?q=******321q HTTP/1.1"),
    ("@bp.route('/payments') in a traceback", "@bp.route('/payments') in a traceback"),
    ("already masked: v***@example.com", "already masked: v***@example.com"),
])
def test_log_text_masks_addresses_however_escaped(text, logged):
    assert redact_log_text(text) == logged


def test_an_address_is_masked_as_the_audit_masks_it():
    assert redact_log_text("victim@example.com") == masked_email("victim@example.com")

