"""Drive dbt in-process and run SQL on the same Spark, for tests and tools."""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dbt.cli.main import dbtRunner, dbtRunnerResult

from sqc.paths import ROOT, set_home


def literal(value: Any) -> str:
    """A Python value as a Spark SQL literal (strings escaped)."""
    import datetime as dt

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dt.datetime):
        return f"timestamp'{value.isoformat(sep=' ')}'"
    if isinstance(value, dt.date):
        return f"date'{value.isoformat()}'"
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def write_consumer_project(directory: Path, name: str, settings: str = "") -> None:
    """A fresh dbt project `name` at `directory` that lists this one in its
    packages.yml (profile catalog_consumer), with empty models/ and seeds/;
    `settings` is the rest of its dbt_project.yml."""
    shutil.rmtree(directory, ignore_errors=True)
    (directory / "models").mkdir(parents=True)
    (directory / "seeds").mkdir()
    (directory / "dbt_project.yml").write_text(
        f"name: {name}\nversion: '0.1.0'\nconfig-version: 2\nprofile: catalog_consumer\n" + settings
    )
    (directory / "packages.yml").write_text(f"packages:\n  - local: {ROOT}\n")


def values_sql(rows: list[tuple[Any, ...]], columns: list[tuple[str, str]]) -> str:
    """A query giving `rows` with the named, typed columns (rows may be empty)."""
    names = ", ".join(f"`{name}`" for name, _ in columns)
    casts = ", ".join(f"cast(`{name}` as {kind}) as `{name}`" for name, kind in columns)
    if not rows:
        nulls = ", ".join(f"cast(null as {kind}) as `{name}`" for name, kind in columns)
        return f"select {nulls} where false"
    body = ", ".join("(" + ", ".join(literal(v) for v in row) + ")" for row in rows)
    return f"select {casts} from values {body} as t({names})"


# Targets reached over HiveServer2, and the variables that locate their server
# (as profiles/profiles.yml reads them): host variable, port variable, default port.
HIVE_TARGETS = {
    "thrift": ("SPARK_THRIFT_HOST", "SPARK_THRIFT_PORT", "10000"),
    "cluster": ("SPARK_CLUSTER_HOST", "SPARK_CLUSTER_PORT", "10001"),
}
# Targets whose dbt connection is a SparkSession in this process: embedded
# Spark, or a Spark Connect client.
SESSION_TARGETS = ("session", "connect")


def connect_url() -> str:
    host = os.environ.get("SPARK_CONNECT_HOST", "127.0.0.1")
    return f"sc://{host}:{os.environ.get('SPARK_CONNECT_PORT', '15002')}"


def use_project_environment(root: Path, state_dir: str) -> None:
    """Run from the project root with its profiles, Spark state under
    `state_dir`, dbt logs under .state/logs, Spark on loopback, and no
    usage events sent by dbt (DO_NOT_TRACK: the consumer projects keep
    dbt's default, as a user's would, and tests send nothing)."""
    os.chdir(root)
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("DBT_PROFILES_DIR", str(root / "profiles"))
    os.environ.setdefault("SPARK_STATE_DIR", state_dir)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("DBT_LOG_PATH", str(root / ".state" / "logs"))


def use_bench_environment(root: Path, state_dir: str) -> None:
    """The project environment for a benchmark: 4g of driver memory for its
    millions of rows, and no Spark console progress bar (it prints through
    the benchmark's own progress bars)."""
    use_project_environment(root, state_dir)
    os.environ.setdefault("SPARK_DRIVER_MEMORY", "4g")
    os.environ.setdefault(
        "PYSPARK_SUBMIT_ARGS", "--conf spark.ui.showConsoleProgress=false pyspark-shell"
    )


class DbtFailure(AssertionError):
    """A dbt invocation failed; the message holds dbt's error events."""


@dataclass
class DbtProject:
    """One dbt project, target and schema; invocations run in this process."""

    project_dir: Path
    target: str = "session"
    schema: str = "spark_query_catalog"
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    infos: list[str] = field(default_factory=list)
    # Debug-level messages: where dbt puts a microbatch batch's own error.
    debugs: list[str] = field(default_factory=list)
    # The SQL of every query the last invocation ran (dbt's SQLQuery events).
    queries: list[str] = field(default_factory=list)

    def _collect(self, event: Any) -> None:
        if event.info.name == "SQLQuery":
            self.queries.append(event.data.sql)
        level = event.info.level
        if level == "warn":
            self.warnings.append(event.info.msg)
        elif level == "error":
            self.errors.append(event.info.msg)
        elif level == "info":
            self.infos.append(event.info.msg)
        elif level == "debug":
            self.debugs.append(event.info.msg)

    def invoke(self, *args: str, expect_success: bool = True) -> dbtRunnerResult:
        """Run one dbt command; fail with dbt's own error text unless it passes."""
        os.environ["DBT_SCHEMA"] = self.schema
        set_home(self.project_dir)
        # A HiveServer2 session caches table listings: after dbt rebuilds a
        # table from its own session, read it from a fresh one.
        self._close_hive()
        self.warnings.clear()
        self.errors.clear()
        self.infos.clear()
        self.debugs.clear()
        self.queries.clear()
        runner = dbtRunner(callbacks=[self._collect])
        # `parse` and `docs generate` exist for their JSON: they write it
        # even where DBT_WRITE_JSON=false (as the tests set) skips the rest.
        artifacts = {"write_json": True} if args[0] in ("parse", "docs") else {}
        result = runner.invoke(
            [
                *args,
                "--project-dir",
                str(self.project_dir),
                "--target",
                self.target,
                "--quiet",
            ],
            **artifacts,
        )
        if expect_success and not result.success:
            raise DbtFailure(f"dbt {' '.join(args)} failed:\n" + "\n".join(self.errors))
        return result

    def compile_inline(self, sql: str, *args: str) -> str:
        """The SQL that dbt compiles `sql` (Jinja calling the macros) to;
        `args` are more of dbt's flags (e.g. "--vars", "{...}")."""
        # --quiet still prints the compiled SQL of --inline; nothing should.
        result = self.invoke("compile", "--inline", sql, *args, "--log-level", "none")
        return str(result.result.results[0].node.compiled_code).strip()

    def compile_many(self, sqls: list[str], *args: str) -> list[str]:
        """compile_inline of each of `sqls`, in one dbt invocation (about
        0.7 s each saved): they are compiled as one text, cut at a marker."""
        marker = "\n-- spark_query_catalog_test: next statement --\n"
        compiled = self.compile_inline(marker.join(sqls), *args).split(marker.strip())
        assert len(compiled) == len(sqls), "a statement holds the marker"
        return [text.strip() for text in compiled]

    def compile_error(self, sql: str) -> str:
        """The error text dbt gives for `sql`, which must fail to compile."""
        result = self.invoke("compile", "--inline", sql, expect_success=False)
        if result.success:
            raise AssertionError(f"expected a compile error for: {sql}")
        return "\n".join(self.errors)

    def ping(self) -> None:
        """One query through dbt: on the session target, dbt builds the
        SparkSession from the profile."""
        self.invoke("show", "--inline", "select 1 as one", "--log-level", "none")

    # Direct SQL on the Spark the target uses: the in-process session, or
    # the Thrift server over HiveServer2 (PyHive), as dbt-spark connects.

    def spark(self) -> Any:
        """The SparkSession dbt uses: in-process Spark, or a Spark Connect client."""
        from pyspark.sql import SparkSession

        if self.target not in SESSION_TARGETS:
            raise RuntimeError(f"no SparkSession on the {self.target} target")
        if self.target == "connect":
            return SparkSession.builder.remote(connect_url()).getOrCreate()
        from pyspark import SparkContext

        # Not getActiveSession(): that is per thread, and dbt runs its
        # statements on threads of its own, so from the tests' thread it is
        # mostly None (and a ping cost a whole dbt command, about 1 s).
        if SparkContext._active_spark_context is None:
            # dbt's first statement builds the session from the profile.
            self.ping()
        return SparkSession.builder.getOrCreate()

    def sql(self, statement: str) -> list[Any]:
        """Rows of a statement, with Python values as PySpark gives them."""
        if self.target in SESSION_TARGETS:
            return self.spark().sql(statement).collect()
        return _hive_rows(self._hive_cursor(), statement)

    def columns(self, statement: str) -> list[tuple[str, str]]:
        """(name, Spark type) of each column a query returns."""
        return [(row[0], row[1]) for row in self.sql(f"describe query {statement}")]

    def _close_hive(self) -> None:
        if getattr(self, "_hive", None) is not None:
            # A server that died has closed it already.
            with contextlib.suppress(Exception):
                self._hive.close()
            self._hive = None

    def _hive_cursor(self) -> Any:
        if getattr(self, "_hive", None) is None:
            from pyhive import hive

            host, port, default_port = HIVE_TARGETS[self.target]
            self._hive = hive.connect(
                host=os.environ.get(host, "127.0.0.1"),
                port=int(os.environ.get(port, default_port)),
                username=os.environ.get("SPARK_THRIFT_USER", "dbt"),
                # As dbt-spark sets on every connection.
                configuration={"spark.sql.ansi.enabled": "false"},
            )
        return self._hive.cursor()

    # Schemas are made and dropped by the tooling itself: the package has
    # no macro for it (a consumer could call one).

    def create_schema(self) -> None:
        self.sql(f"create schema if not exists `{self.schema}`")

    def drop_schema(self) -> None:
        self.sql(f"drop schema if exists `{self.schema}` cascade")

    def table(self, name: str) -> str:
        return f"{self.schema}.{name}"


def _hive_rows(cursor: Any, statement: str) -> list[Any]:
    """Rows from PyHive, typed like PySpark's (timestamps, dates, decimals)."""
    import datetime as dt
    from decimal import Decimal

    from pyspark.sql import Row

    cursor.execute(statement)
    if not cursor.description:
        return []
    names = [column[0] for column in cursor.description]
    kinds = [column[1] for column in cursor.description]
    converters = {
        "TIMESTAMP_TYPE": dt.datetime.fromisoformat,
        "DATE_TYPE": dt.date.fromisoformat,
        "DECIMAL_TYPE": Decimal,
    }
    rows = []
    for values in cursor.fetchall():
        typed = [
            converters[kind](value) if isinstance(value, str) and kind in converters else value
            for value, kind in zip(values, kinds, strict=True)
        ]
        rows.append(Row(**dict(zip(names, typed, strict=True))))
    return rows
