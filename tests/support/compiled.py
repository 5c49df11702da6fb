"""The suite builds a new portal for nearly every test (some 2,500 apps a run), and each new
app compiles again what the last one did: a URL builder for every route (werkzeug generates and
compiles Python per rule, about 16 of the 21 ms ``create_app`` takes) and every template it
renders (Jinja lexes, parses and generates Python for it), and, on its new engine, every SQL
statement it runs (SQLAlchemy keys its compiled statements by the engine's dialect object: about
a seventh of a page test's CPU went to compiling them again). All are code that depends only on
its source (a rule's parts, defaults and converters; a template's file; a statement's shape and
a dialect's kind and server version), so the tests compile each once per process and reuse it.
Production builds one app per process and is not touched."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.util import LRUCache
from werkzeug.routing.rules import Rule

from portal.core import db as database

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


class SharedTemplateCache(BytecodeCache):
    """Compiled templates kept in memory for every app of the process. Jinja keys a template
    by its name and file and checks its source's checksum before using what is kept."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill ``bucket`` with the template's code, if compiled before."""
        if bucket.key in self._compiled:
            bucket.bytecode_from_string(self._compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep the template's newly compiled code."""
        self._compiled[bucket.key] = bucket.bytecode_to_string()


def reuse_compiled_templates() -> None:
    """Every Flask app of the process (the portal's and the sandbox's) shares one cache of
    compiled templates."""
    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": SharedTemplateCache()}


class SharedCompiledSql(LRUCache):  # type: ignore[type-arg]
    """Compiled statements kept for every engine of the process. SQLAlchemy's key starts with
    the engine's dialect object; here a dialect of the same kind, server version and parameter
    style as one seen before stands for it, so an equal statement on another test's database
    finds what was compiled for the first (the compiled code reads nothing else of its
    dialect)."""

    def __init__(self) -> None:
        super().__init__(capacity=20_000)
        self._dialects: dict[tuple[Any, ...], Dialect] = {}

    def _same(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        dialect = key[0]
        kind = (type(dialect), dialect.server_version_info, dialect.paramstyle)
        return (self._dialects.setdefault(kind, dialect), *key[1:])

    def get(self, key: Any, default: Any = None) -> Any:
        """What was compiled for ``key``'s statement on an equal dialect."""
        return super().get(self._same(key), default)

    def __getitem__(self, key: Any) -> Any:
        return super().__getitem__(self._same(key))

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(self._same(key), value)


def reuse_compiled_sql() -> None:
    """Every engine the portal makes in this process shares one cache of compiled SQL."""
    shared = SharedCompiledSql()
    create_engine = database.create_engine

    def create_sharing(*args: Any, **kwargs: Any) -> Engine:
        engine = create_engine(*args, **kwargs)
        engine._compiled_cache = shared
        return engine

    database.create_engine = create_sharing  # type: ignore[assignment]


def reuse_compiled_code() -> None:
    """Compile each route's URL builder, each template and each SQL statement once per
    process."""
    reuse_url_builders()
    reuse_compiled_templates()
    reuse_compiled_sql()
