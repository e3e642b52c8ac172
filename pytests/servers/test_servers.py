"""The server tooling's messages, against a real Thrift server and empty ports."""

from __future__ import annotations

import socket

import pytest

from sqc.servers import Cluster, ServerError, ThriftServer, check_thrift
from sqc.testing.dbt_harness import DbtProject

# What a server changes: this module runs on every target (make test-thrift).
pytestmark = pytest.mark.server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_wrong_port_says_what_to_do() -> None:
    port = _free_port()
    with pytest.raises(ServerError) as error:
        check_thrift("127.0.0.1", port, timeout=1)
    message = str(error.value)
    assert f"nothing accepts connections on 127.0.0.1:{port}" in message
    assert "make thrift-start" in message and "SPARK_THRIFT_PORT" in message


def test_wrong_host_says_what_to_do() -> None:
    with pytest.raises(ServerError) as error:
        check_thrift("no-such-host.invalid", 10000, timeout=1)
    assert "cannot resolve host 'no-such-host.invalid'" in str(error.value)
    assert "SPARK_THRIFT_HOST" in str(error.value)


def test_a_port_that_is_not_hiveserver2() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(ServerError) as error:
            check_thrift("127.0.0.1", port, timeout=1)
    assert "is not a HiveServer2" in str(error.value)


def test_start_refuses_a_port_in_use() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        server = ThriftServer("thrift_port_taken", port=listener.getsockname()[1])
        with pytest.raises(ServerError) as error:
            server.start(timeout=5)
    assert "already taken by another process" in str(error.value)


def test_running_server_checks_out(server: object, target: str) -> None:
    """The tooling's check passes against the HiveServer2 this run started."""
    thrift = server.thrift if isinstance(server, Cluster) else server
    if not isinstance(thrift, ThriftServer):
        pytest.skip(f"the {target} target has no HiveServer2 to check")
    assert "is a Spark Thrift server" in check_thrift(thrift.host, thrift.port)


def test_tasks_run_on_the_workers(project: DbtProject, server: object, target: str) -> None:
    """On the cluster, a query's tasks run in executors that the Workers
    started (their working folders are under the Workers' --work-dir), not in
    the Thrift server's driver, and the Master counts the application."""
    if not isinstance(server, Cluster):
        pytest.skip("only the cluster target has Workers")
    assert project.sql("set spark.master")[0][1] == server.master.url
    folders = {
        row.folder
        for row in project.sql(
            "select distinct reflect('java.lang.System', 'getProperty', 'user.dir') as folder "
            "from range(0, 100000, 1, 8)"
        )
    }
    work_dirs = [str(server.worker(i).work_dir) + "/" for i in range(server.workers)]
    assert folders, "the query ran no task"
    for folder in folders:
        assert any(folder.startswith(work_dir) for work_dir in work_dirs), folder
    assert str(server.thrift.directory) not in folders
    state = server.master.state()
    assert state["aliveworkers"] == server.workers
    assert [app["name"] for app in state["activeapps"]] == [
        f"spark_query_catalog_{server.thrift.name}"
    ]
