"""The package's macros rendered with dbt's own Jinja environment, no Spark.

For the fast test tier: argument checks, quoting, type widening, frame
bounds and the SQL text of macros that need no database. Each macro is
called as dbt calls it (`{{ return(...) }}` gives its value, a compiler
error raises `CompileError` with dbt's message), with a context that
carries what the macros read: `adapter.dispatch`, `exceptions`, `modules`,
`execute`, `flags.EMPTY`, `api.Relation`, `target`. A test can give
relations' columns (`columns=`), which the fake adapter's
`get_columns_in_relation` returns as Spark's `describe` would; any query
(`run_query`) fails the test, so what these tests cover needs none.
"""

from __future__ import annotations

import datetime
import functools
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dbt_common.clients.jinja import get_environment
from dbt_common.exceptions.macros import MacroReturn

from sqc.paths import ROOT

PACKAGE = "spark_query_catalog"


class CompileError(Exception):
    """exceptions.raise_compiler_error, as a macro raised it."""


class QueryAttempted(AssertionError):
    """A macro ran a query: the fast tier has no database."""


@dataclass(frozen=True)
class Relation:
    """What the macros read of a dbt Relation (dbt-spark renders schema.identifier)."""

    identifier: str
    schema: str | None = None
    database: str | None = None
    type: str | None = "table"
    limit: int | None = None

    @property
    def is_cte(self) -> bool:
        return self.type == "cte"

    def render(self) -> str:
        name = ".".join(part for part in (self.schema, self.identifier) if part)
        if self.limit is not None:
            return f"(select * from {name} where false limit {self.limit})"
        return name

    def incorporate(self, **changes: Any) -> Relation:
        path = changes.pop("path", {}) or {}
        return replace(self, **path, **changes)

    def replace(self, **changes: Any) -> Relation:
        """dbt's BaseRelation.replace (a field this stub does not keep, such as
        event_time_filter, is none here already)."""
        return replace(self, **{k: v for k, v in changes.items() if k in self.__dataclass_fields__})

    def __str__(self) -> str:
        return self.render()

    @classmethod
    def create(cls, **parts: Any) -> Relation:
        return cls(**{k: v for k, v in parts.items() if k in cls.__dataclass_fields__})


class Rows(list):
    """A query's result as the macros read it: rows, and `.rows`."""

    @property
    def rows(self) -> list[tuple[str, ...]]:
        return list(self)


@dataclass
class Column:
    name: str
    data_type: str


@dataclass
class Library:
    """Every macro of the package, callable as `library.call(name, *args)`."""

    execute: bool = True
    empty: bool = False
    # Relation text (as rendered) -> [(column, type)] for get_columns_in_relation.
    columns: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # A model's config, as `config.get` reads it (the materialization's settings).
    model_config: dict[str, Any] = field(default_factory=dict)
    # The project's vars, as `var(name, default)` reads them.
    vars: dict[str, Any] = field(default_factory=dict)
    # The session time zone, as `set spark.sql.session.timeZone` answers.
    time_zone: str = "UTC"
    warnings: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    macros: dict[str, Any] = field(default_factory=dict)
    # Scripted answers to other queries, in order: [(text the query starts
    # with, its rows)]; each query asked is kept in `queries`.
    answers: list[tuple[str, list[tuple[Any, ...]]]] = field(default_factory=list)
    # Relations added to dbt's relation cache (adapter.cache_added), as rendered.
    cached: list[str] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    # The calling model: `this`, and whether `is_incremental()` is true.
    this: Any = None
    incremental: bool = False

    def __post_init__(self) -> None:
        environment, templates = _compiled_macros()
        context = self._context()
        self._environment = environment
        self._context_values = context
        for template in templates:
            module = template.make_module(vars=context)
            for key, value in module.__dict__.items():
                if key.startswith("dbt_macro__"):
                    self.macros[key.removeprefix("dbt_macro__")] = value

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """The macro's returned value, or its rendered text when it returns none."""
        macro = self.macros[name]
        try:
            return macro(*args, **kwargs)
        except MacroReturn as returned:
            return returned.value

    def render(self, text: str) -> str:
        """A model's Jinja, e.g. "{{ pivot('t', 'name', 'sum(points)') }}", with
        the package's macros callable by name, as in its own project."""
        macros = {
            name: (lambda n: lambda *a, **k: self.call(n, *a, **k))(name) for name in self.macros
        }
        template = self._environment.from_string(text)
        return str(template.render({**self._context_values, **macros})).strip()

    def render_error(self, text: str) -> str:
        """The compiler error that rendering `text` raises."""
        try:
            self.render(text)
        except CompileError as error:
            return str(error)
        raise AssertionError(f"no compile error for: {text}")

    def error(self, name: str, *args: Any, **kwargs: Any) -> str:
        """The compiler error the call raises (the test fails when there is none)."""
        try:
            self.call(name, *args, **kwargs)
        except CompileError as error:
            return str(error)
        raise AssertionError(f"{name} raised no compile error")

    def show(self, sql: str) -> list[tuple[str, ...]]:
        """What Spark's SHOW CATALOGS / SCHEMAS / TABLES would list, when the
        relations of `columns` are the only ones (names lower-cased), and the
        session's time zone."""
        names = [name.lower().split(".") for name in self.columns]
        if sql == "set spark.sql.session.timeZone":
            return [("spark.sql.session.timeZone", self.time_zone)]
        if match := re.fullmatch(r"show catalogs like '(.+)'", sql):
            return [("spark_catalog",)] if match[1] == "spark_catalog" else []
        if match := re.fullmatch(r"show schemas(?: in (\w+))? like '(.+)'", sql):
            return [(match[2],)] if any(len(n) > 1 and n[-2] == match[2] for n in names) else []
        if match := re.fullmatch(r"show tables(?: in ([\w.]+))? like '(.+)'", sql):
            schema = (match[1] or "").split(".")[-1]
            return [
                (n[-2] if len(n) > 1 else "", n[-1], "false")
                for n in names
                if n[-1] == match[2] and (schema == "" or (len(n) > 1 and n[-2] == schema))
            ]
        self.queries.append(sql)
        for index, (start, rows) in enumerate(self.answers):
            if sql.lstrip().startswith(start):
                del self.answers[index]
                return rows
        raise QueryAttempted(f"a macro ran a query, which the fast tier cannot: {sql}")

    def _context(self) -> dict[str, Any]:
        library = self

        class Namespace(dict):
            """The package's macros by name (a dict, as dbt's namespace is:
            Jinja's sandbox reads `_private` names from a mapping only)."""

            def __missing__(self, name: str) -> Callable[..., Any]:
                if name not in library.macros:
                    raise KeyError(name)
                return lambda *a, **k: library.call(name, *a, **k)

        class Adapter:
            def dispatch(self, name: str, namespace: str) -> Callable[..., Any]:
                assert namespace == PACKAGE, namespace
                return Namespace()[f"default__{name}"]

            def get_columns_in_relation(self, relation: Any) -> list[Column]:
                text = relation.render() if hasattr(relation, "render") else str(relation)
                return [Column(n, t) for n, t in library.columns.get(text, [])]

            def get_relation(self, database: Any, schema: Any, identifier: Any) -> Any:
                name = ".".join(p for p in (schema, identifier) if p)
                return Relation(identifier, schema) if name in library.columns else None

            def cache_added(self, relation: Any) -> None:
                library.cached.append(relation.render())

            def drop_relation(self, relation: Any) -> None:
                # dbt-spark's drop_relation, and the cache forgets it.
                run_query(f"drop {relation.type} if exists {relation.render()}")
                if relation.render() in library.cached:
                    library.cached.remove(relation.render())

        def raise_compiler_error(message: str) -> None:
            raise CompileError(message)

        def run_query(sql: str) -> Any:
            """SHOW statements answer from `columns` as Spark's catalog would;
            any other query fails the test."""
            return Rows(library.show(sql))

        def do_return(value: Any) -> None:
            raise MacroReturn(value)

        class Config:
            def get(self, key: str, default: Any = None) -> Any:
                return library.model_config.get(key, default)

        return {
            PACKAGE: Namespace(),
            "config": Config(),
            "adapter": Adapter(),
            "api": type("Api", (), {"Relation": Relation})(),
            "exceptions": type(
                "Exceptions",
                (),
                {
                    "raise_compiler_error": staticmethod(raise_compiler_error),
                    "warn": staticmethod(library.warnings.append),
                },
            )(),
            "modules": type(
                "Modules", (), {"re": re, "datetime": datetime, "itertools": itertools}
            )(),
            "execute": self.execute,
            "this": self.this,
            "is_incremental": lambda: library.incremental,
            "flags": type("Flags", (), {"EMPTY": self.empty})(),
            "target": type("Target", (), {"schema": "analytics", "name": "session"})(),
            "run_query": run_query,
            "var": lambda name, default=None: library.vars.get(name, default),
            "return": do_return,
            "log": lambda message, info=False: library.logs.append(message),
            "fromjson": json.loads,
            "tojson": json.dumps,
        }


@functools.cache
def _compiled_macros() -> tuple[Any, list[Any]]:
    """dbt's Jinja environment and every macro file compiled in it, once a
    process: compiling them is most of a Library's cost (seconds), where
    each Library binds them to a context of its own."""
    environment = get_environment()
    paths = sorted((ROOT / "macros").rglob("*.sql"))
    return environment, [environment.from_string(path.read_text()) for path in paths]


def macro_definitions() -> Iterator[tuple[Path, str, list[str]]]:
    """(file, macro name, argument names) of every `{% macro %}` and `{% test %}`."""
    pattern = re.compile(r"{%-?\s*(macro|test)\s+(\w+)\((.*?)\)\s*-?%}", re.S)
    for path in sorted((ROOT / "macros").rglob("*.sql")):
        for kind, name, arguments in pattern.findall(path.read_text()):
            names = [a.split("=")[0].strip() for a in arguments.split(",") if a.strip()]
            yield path, ("test_" + name if kind == "test" else name), names
