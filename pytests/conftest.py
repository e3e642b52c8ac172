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

from sqc.paths import ROOT
from sqc.servers import Cluster, ConnectServer, Server, ThriftServer
from sqc.testing.dbt_harness import DbtProject, connect_url, use_project_environment

# 30 examples a property on the embedded session (40 until 0.3: the suite must
# stay under 30 minutes with the incremental_windows tests).
settings.register_profile("session", max_examples=30, deadline=None)
# Over a server each example is several round trips: fewer examples.
settings.register_profile("server", max_examples=15, deadline=None)


def pytest_configure(config: pytest.Config) -> None:
    # Before collection, so that the property tests' settings see it.
    target = str(config.getoption("--target"))
    settings.load_profile("session" if target == "session" else "server")


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
    # No manifest.json and run_results.json after every dbt command: writing
    # them took half of a small command's time (about 0.5 s of 1), and the
    # tests read results in-process (the harness's `parse` and `docs
    # generate` still write them).
    os.environ["DBT_WRITE_JSON"] = "false"
    yield
    os.chdir(previous)


# The server each target's tests start, on ports of their own (so that a
# developer's servers on the default ports keep running), and how the
# target's profile finds it.
SERVERS: dict[str, tuple[Server | Cluster, dict[str, str]]] = {
    "thrift": (ThriftServer("thrift_pytest", port=10011), {"SPARK_THRIFT_PORT": "10011"}),
    "cluster": (
        Cluster("cluster_pytest", port=10012, master_port=7177, webui_port=8190),
        {"SPARK_CLUSTER_PORT": "10012"},
    ),
    "connect": (ConnectServer("connect_pytest", port=15012), {"SPARK_CONNECT_PORT": "15012"}),
}


@pytest.fixture(scope="session")
def server(target: str, _environment: None) -> Iterator[Server | Cluster | None]:
    """The real Spark server the target connects to, started for the test
    session and stopped after it (none for the embedded session target)."""
    if target not in SERVERS:
        yield None
        return
    running, environment = SERVERS[target]
    os.environ.update(environment)
    running.start()
    yield running
    if target == "connect":
        # Close the client's server-side session while the server is up: a
        # client left open retries its release for minutes at exit.
        from pyspark.sql import SparkSession

        SparkSession.builder.remote(connect_url()).getOrCreate().stop()
    running.stop()


@pytest.fixture(scope="session", autouse=True)
def _server(server: Server | Cluster | None) -> None:
    """Every test runs with its target's server up."""


@pytest.fixture(scope="module")
def project(request: pytest.FixtureRequest, target: str) -> Iterator[DbtProject]:
    """The catalog project in a schema named after the test module."""
    schema = "pytest_" + request.module.__name__.rsplit(".", 1)[-1]
    dbt = DbtProject(ROOT, target=target, schema=schema)
    dbt.drop_schema()  # left over from an interrupted run
    dbt.create_schema()
    yield dbt
    dbt.drop_schema()
