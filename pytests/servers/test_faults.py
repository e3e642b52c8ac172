"""A Spark Thrift server killed in the middle of `dbt build` (of the
catalog's sample, sqc.testing.fingerprint.SAMPLE): dbt fails promptly with a
connection error, no table is left half-written, and a rerun after a restart,
on four threads, converges to the catalog embedded Spark builds on two."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sqc.paths import ROOT, home_environment
from sqc.servers import ThriftServer
from sqc.testing.dbt_harness import DbtProject
from sqc.testing.fingerprint import (
    built_tables,
    catalog_rows,
    differences,
    load_reference,
    sample_selection,
)

# What a server changes: this module runs on every target (make test-thrift).
pytestmark = pytest.mark.server

PORT = 10013
# Tables a build may leave that are not models or seeds: the empty probe that
# clears a dead CREATE TABLE's directory (macros/_internal/_sqc_locations.sql).
PROBE = "__spark_query_catalog_probe"
# The catalog's sample but for its microbatch model, which dbt writes a batch
# at a time: killed, it keeps the batches that finished, and `dbt retry` runs
# the rest (docs/failures.md). Every other model is whole or absent.
SELECTION = sample_selection(without=("card_features_by_batch",))


@pytest.fixture(scope="module")
def fault_server(target: str) -> Iterator[ThriftServer]:
    """A second Thrift server, started fresh for the module (the first test
    needs a fresh one) and stopped after it."""
    if target != "thrift":
        pytest.skip("kills and restarts a Thrift server: run on the thrift target")
    server = ThriftServer("thrift_fault", port=PORT)
    server.start()
    yield server
    server.stop()


def _build_and_kill(
    server: ThriftServer, schema: str, kind: str, number: int
) -> tuple[int, float, str]:
    """Start `dbt build`, kill the server with SIGKILL just after the
    `number`th node of `kind` ('seed file', or 'sql' for a model) started,
    and wait for dbt. Returns dbt's exit code, the seconds it took to exit
    after the kill, and its output."""
    # The catalog's own project: parsed with its catalog, whatever project
    # this test process ran before (sqc.paths.set_home).
    environment = {**home_environment(), "DBT_SCHEMA": schema, "SPARK_THRIFT_PORT": str(PORT)}
    build = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("dbt")),
            *("build", "--target", "thrift", *SELECTION),
        ],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert build.stdout is not None
    lines: list[str] = []
    started = 0
    killed_at = None
    for line in build.stdout:
        lines.append(line)
        started += f" START {kind} " in line
        if killed_at is None and started == number:
            # Somewhere inside the node's statements: its CREATE TABLE, often.
            time.sleep(random.uniform(0.1, 1.0))
            pid = server.pid()
            assert pid is not None, "the server died on its own"
            os.killpg(pid, signal.SIGKILL)
            killed_at = time.monotonic()
            # Keep reading dbt's output, but do not wait on it forever.
            threading.Timer(120, build.kill).start()
    code = build.wait()
    assert killed_at is not None, "the build finished before the kill:\n" + "".join(lines[-20:])
    return code, time.monotonic() - killed_at, "".join(lines)


def _visible_tables(project: DbtProject) -> dict[str, list[str]]:
    project._close_hive()  # a connection from before a restart is dead
    rows = catalog_rows(project)
    return {name: table for name, table in rows.items() if PROBE not in name}


def test_fresh_server_closes_concurrent_sessions(fault_server: ThriftServer) -> None:
    """dbt opens and closes a session per node, on several threads. On a
    server started with Hive's default doAs=true, the first closes racing on
    a fresh server fail (NoClassDefFoundError: LlapSigner$Signable, a class the
    pyspark wheel does not ship) and later closes hang: sqc.servers starts it
    with doAs=false and the hive-llap type on its class path
    (sqc/hive_llap_stub)."""
    from pyhive import hive

    errors: list[str] = []

    def sessions(thread: int) -> None:
        for number in range(5):
            try:
                connection = hive.connect(host="127.0.0.1", port=PORT, username="dbt")
                cursor = connection.cursor()
                # A metastore call and a query, as every dbt node makes.
                cursor.execute("show tables in default")
                cursor.fetchall()
                cursor.execute("select 1")
                assert cursor.fetchall() == [(1,)]
                cursor.close()
                connection.close()
            except Exception as error:  # every failure is reported below
                errors.append(f"thread {thread}, session {number}: {str(error)[:300]}")

    threads = [threading.Thread(target=sessions, args=(n,), daemon=True) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not [thread for thread in threads if thread.is_alive()], "a session close hung"
    assert errors == []
    assert "LlapSigner" not in fault_server.log_file.read_text()


def test_killed_server_then_rerun(fault_server: ThriftServer, target: str) -> None:
    reference = load_reference()
    project = DbtProject(ROOT, target=target, schema="pytest_faults")
    previous_port = os.environ.get("SPARK_THRIFT_PORT")
    os.environ["SPARK_THRIFT_PORT"] = str(PORT)
    try:
        project.drop_schema()
        project.create_schema()
        # Kill once among the seeds and once among the models.
        for kind, number in (("seed file", 5), ("sql", 2)):
            code, seconds, output = _build_and_kill(fault_server, project.schema, kind, number)
            assert code != 0, output[-2000:]
            assert seconds < 60, f"dbt took {seconds:.0f}s to give up"
            assert "failed to connect" in output or "Connection" in output, output[-2000:]
            fault_server.stop()  # reap the killed process, forget its pid
            fault_server.start()
            # Whatever exists is whole: a table is the reference's, row for row.
            visible = _visible_tables(project)
            assert visible, "nothing survived from the builds so far"
            partial = {name: rows for name, rows in reference.items() if name in visible}
            assert differences(partial, visible) == []
        # The rerun on four threads, as teams build against a shared server:
        # it equals the one-thread catalog too.
        built = built_tables(project.invoke("build", "--threads", "4", *SELECTION))
        visible = _visible_tables(project)
        assert set(visible) == built
        assert differences({name: reference[name] for name in built}, visible) == []
        assert not [name for name in catalog_rows(project) if PROBE in name]
    finally:
        if fault_server.pid() is not None:
            project.drop_schema()
        if previous_port is not None:
            os.environ["SPARK_THRIFT_PORT"] = previous_port
