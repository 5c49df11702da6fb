"""Checking a received HMAC digest: any active secret may match, compared whole in constant time."""

from __future__ import annotations

import hmac

import pytest

from portal.gateway.onboarding import hmac as signing
from portal.gateway.onboarding.hmac import digests_match, hmac_digest, matching_secret
from tests.gateway.support import HEX_OF_A1

# ---------------------------------------------------------------- several secrets, comparison


def test_matching_secret_accepts_any_active_secret() -> None:
    data = b'{"a":1}'
    received = "qp4uNXX11wmLbKzNeQiIw21f22M0KnO62i1qUXR6hJQ="  # openssl, secret 'secret'
    assert matching_secret(["secret"], data, received)
    assert matching_secret(["old-one", "secret"], data, received)
    assert matching_secret(["secret", "new-one"], data, received)


def test_matching_secret_refuses_when_no_secret_matches() -> None:
    data = b'{"a":1}'
    received = "qp4uNXX11wmLbKzNeQiIw21f22M0KnO62i1qUXR6hJQ="
    assert not matching_secret(["other", "another"], data, received)
    assert not matching_secret([], data, received)
    assert not matching_secret(["secret"], b'{"a": 1}', received)  # re-serialised JSON
    assert not matching_secret(["secret"], data, HEX_OF_A1)  # hex, not Base64


def test_matching_secret_tries_every_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[str] = []
    real = signing.hmac_digest

    def spy(secret: str, data: bytes) -> str:
        tried.append(secret)
        return real(secret, data)

    monkeypatch.setattr(signing, "hmac_digest", spy)
    received = real("a", b"x")
    assert matching_secret(["a", "b", "c"], b"x", received)
    assert tried == ["a", "b", "c"]  # no early exit on the first match


def test_digests_match_compares_whole_values() -> None:
    digest = hmac_digest("secret", b"x")
    assert digests_match(digest, digest)
    assert digests_match(digest, str(digest))
    assert not digests_match(digest, digest[:-1])
    assert not digests_match(digest, digest + "=")
    assert not digests_match(digest, "")
    assert not digests_match(digest, digest.lower())


def test_digests_match_survives_non_ascii_input() -> None:
    digest = hmac_digest("secret", b"x")
    assert not digests_match(digest, "Ω" * len(digest))


def test_digests_match_uses_a_constant_time_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(signing.hmac, "compare_digest", spy)
    assert digests_match("abc=", "abc=")
    assert calls == [(b"abc=", b"abc=")]
