"""The suite's reuse of URL builders across apps (tests/support/routing.py) builds the URLs
werkzeug's own would: the same rule in two maps, rules that differ only in defaults or
converters."""

from __future__ import annotations

from werkzeug.routing import Map, Rule


def build(rules: list[Rule], endpoint: str, values: dict) -> str:
    """The path ``endpoint`` builds to with ``values`` in a new map of ``rules``."""
    return Map(rules).bind("portal.test").build(endpoint, values)


def test_a_rule_in_a_second_map_builds_the_same_url() -> None:
    for _ in range(2):
        assert build([Rule("/m/<int:mid>", endpoint="m")], "m", {"mid": 7, "q": "a b"}) == \
            "/m/7?q=a+b"


def test_rules_differing_in_converters_or_defaults_keep_their_own_builders() -> None:
    assert build([Rule("/m/<mid>", endpoint="m")], "m", {"mid": "a b"}) == "/m/a%20b"
    assert build([Rule("/p/<int(fixed_digits=3):n>", endpoint="p")], "p", {"n": 7}) == "/p/007"
    assert build([Rule("/p/<int:n>", endpoint="p")], "p", {"n": 7}) == "/p/7"
    assert build([Rule("/l", endpoint="l", defaults={"page": 1})], "l", {"page": 1}) == "/l"
    assert build([Rule("/l", endpoint="l")], "l", {"page": 1}) == "/l?page=1"
