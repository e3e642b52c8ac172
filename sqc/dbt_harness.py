"""Drive dbt in-process and run SQL on the same Spark, for tests and tools."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dbt.cli.main import dbtRunner, dbtRunnerResult


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

    def _collect(self, event: Any) -> None:
        level = event.info.level
        if level == "warn":
            self.warnings.append(event.info.msg)
        elif level == "error":
            self.errors.append(event.info.msg)

    def invoke(self, *args: str, expect_success: bool = True) -> dbtRunnerResult:
        """Run one dbt command; fail with dbt's own error text unless it passes."""
        os.environ["DBT_SCHEMA"] = self.schema
        self.warnings.clear()
        self.errors.clear()
        runner = dbtRunner(callbacks=[self._collect])
        result = runner.invoke(
            [
                *args,
                "--project-dir",
                str(self.project_dir),
                "--target",
                self.target,
                "--quiet",
            ]
        )
        if expect_success and not result.success:
            raise DbtFailure(f"dbt {' '.join(args)} failed:\n" + "\n".join(self.errors))
        return result

    def compile_inline(self, sql: str) -> str:
        """The SQL that dbt compiles `sql` (Jinja calling the macros) to."""
        result = self.invoke("compile", "--inline", sql)
        return str(result.result.results[0].node.compiled_code).strip()

    def compile_error(self, sql: str) -> str:
        """The error text dbt gives for `sql`, which must fail to compile."""
        result = self.invoke("compile", "--inline", sql, expect_success=False)
        if result.success:
            raise AssertionError(f"expected a compile error for: {sql}")
        return "\n".join(self.errors)

    def run_operation(self, macro: str, args: str = "{}") -> None:
        self.invoke("run-operation", macro, "--args", args)

    # Direct SQL on the Spark the target uses.

    def spark(self) -> Any:
        from pyspark.sql import SparkSession

        session = SparkSession.getActiveSession()
        if session is None:
            # dbt's first statement builds the session from the profile.
            self.invoke("run-operation", "sqc_ping")
            session = SparkSession.builder.getOrCreate()
        return session

    def sql(self, statement: str) -> list[Any]:
        return self.spark().sql(statement).collect()

    def create_schema(self) -> None:
        self.run_operation("sqc_create_schema", f'{{"schema": "{self.schema}"}}')

    def drop_schema(self) -> None:
        self.run_operation("sqc_drop_schema", f'{{"schema": "{self.schema}"}}')

    def table(self, name: str) -> str:
        return f"{self.schema}.{name}"
