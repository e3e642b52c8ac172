"""Test harness: dbt driven in-process, one Spark JVM for the whole session.

dbt-spark's `session` method builds its SparkSession with `getOrCreate`, so
every dbt invocation and every direct query in this process share one JVM.
Each test module works in a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from sqc.dbt_harness import DbtProject, use_project_environment
from sqc.servers import ThriftServer

settings.register_profile("session", max_examples=40, deadline=None)
# Over HiveServer2 each example is several round trips: fewer examples.
settings.register_profile("thrift", max_examples=15, deadline=None)

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    # Before collection, so that the property tests' settings see it.
    target = str(config.getoption("--target"))
    settings.load_profile("thrift" if target == "thrift" else "session")


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--target"))


@pytest.fixture(scope="session", autouse=True)
def _environment() -> Iterator[None]:
    """Run from the project root with test-only Spark state."""
    previous = Path.cwd()
    use_project_environment(ROOT, ".state/pytest")
    # PySpark turns timestamps into Python datetimes in the local zone;
    # the profiles run Spark in UTC, so the tests compare in UTC too.
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    os.chdir(previous)


@pytest.fixture(scope="session", autouse=True)
def _server(target: str, _environment: None) -> Iterator[None]:
    """A real Spark Thrift server for the thrift target, on a port of its own,
    started for the test session and stopped after it."""
    if target != "thrift":
        yield
        return
    os.environ.setdefault("SPARK_THRIFT_PORT", "10011")
    server = ThriftServer("thrift_pytest", port=int(os.environ["SPARK_THRIFT_PORT"]))
    server.start()
    yield
    server.stop()


@pytest.fixture(scope="module")
def project(request: pytest.FixtureRequest, target: str) -> Iterator[DbtProject]:
    """The catalog project in a schema named after the test module."""
    schema = "pytest_" + request.module.__name__.rsplit(".", 1)[-1]
    dbt = DbtProject(ROOT, target=target, schema=schema)
    dbt.drop_schema()  # left over from an interrupted run
    dbt.create_schema()
    yield dbt
    dbt.drop_schema()
