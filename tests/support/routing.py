"""The suite builds a new portal for nearly every test (some 2,500 apps a run), and each build
compiles a URL builder for every route: werkzeug generates and compiles Python code per rule,
about 16 of the 21 ms ``create_app`` takes. A builder is code that depends only on its rule
(its parts, defaults and converters; the converters themselves are read from the rule when a
URL is built), so the tests compile each one once and reuse it. Production builds one app per
process and is not touched."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing.rules import Rule

Builder = Callable[..., tuple[str, str]]


def builder_key(rule: Rule, append_unknown: bool) -> tuple[Any, ...]:
    """Everything the code of ``rule``'s builder is generated from."""
    converters = tuple(sorted(
        (name, type(converter).__qualname__,
         repr({k: v for k, v in vars(converter).items() if k != "map"}))  # its map: this app's
        for name, converter in rule._converters.items()))
    return (append_unknown, rule.rule, tuple(rule._trace),
            repr(sorted((rule.defaults or {}).items())), converters)


def reuse_url_builders() -> None:
    """Compile each distinct rule's builder once per process (a no-op if werkzeug no longer
    builds them this way: the suite then only runs slower)."""
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    compiled: dict[tuple[Any, ...], Builder] = {}

    def compile_once(rule: Rule, append_unknown: bool = True) -> Builder:
        key = builder_key(rule, append_unknown)
        if key not in compiled:
            compiled[key] = compile_builder(rule, append_unknown)
        return compiled[key]

    Rule._compile_builder = compile_once  # type: ignore[method-assign]
