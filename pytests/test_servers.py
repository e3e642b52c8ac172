"""The server tooling's messages, against a real Thrift server and empty ports."""

from __future__ import annotations

import os
import socket

import pytest

from sqc.dbt_harness import DbtProject
from sqc.servers import ServerError, ThriftServer, check_thrift


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


def test_running_thrift_server_checks_out(target: str) -> None:
    if target != "thrift":
        pytest.skip("needs the Thrift server that the thrift run starts")
    port = int(os.environ["SPARK_THRIFT_PORT"])
    assert "is a Spark Thrift server" in check_thrift("127.0.0.1", port)


def test_four_threads_give_the_same_catalog(project: DbtProject, target: str) -> None:
    """dbt build --threads 4 on the server equals a one-thread build, table by table."""
    if target != "thrift":
        pytest.skip("threads matter against a shared server: checked on thrift")
    one = DbtProject(project.project_dir, target=target, schema="pytest_threads_one")
    four = DbtProject(project.project_dir, target=target, schema="pytest_threads_four")
    try:
        one.invoke("build")
        four.invoke("build", "--threads", "4")
        tables = sorted(row.tableName for row in one.sql(f"show tables in {one.schema}"))
        assert len(tables) >= 34
        for table in tables:
            difference = one.sql(
                f"select count(*) as n from ((select * from {one.table(table)} except all "
                f"select * from {four.table(table)}) union all (select * from "
                f"{four.table(table)} except all select * from {one.table(table)}))"
            )
            assert difference[0].n == 0, table
    finally:
        one.drop_schema()
        four.drop_schema()
