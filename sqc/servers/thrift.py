"""A Spark Thrift server (HiveServer2), and the check of what a dbt thrift
target would meet at an address."""

from __future__ import annotations

import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqc.paths import ROOT
from sqc.servers.base import Server, ServerError, port_open, spark_confs, spark_home

HIVE_LLAP_STUB_SOURCE = ROOT / "conf" / "hive_llap_stub" / "LlapSigner.java"
HIVE_LLAP_STUB_CLASSES = ROOT / ".state" / "hive_llap_stub" / "classes"


def hive_llap_stub() -> Path:
    """The class folder of the hive-llap stub, compiled from its source with
    the JDK's javac when missing or older than the source."""
    compiled = HIVE_LLAP_STUB_CLASSES / "org/apache/hadoop/hive/llap/security/LlapSigner.class"
    source_time = HIVE_LLAP_STUB_SOURCE.stat().st_mtime
    if not compiled.exists() or compiled.stat().st_mtime < source_time:
        javac = shutil.which("javac")
        if javac is None:
            raise ServerError(
                "javac (from a JDK 17) is needed to compile conf/hive_llap_stub/LlapSigner.java "
                "for the Thrift server; install a JDK or put javac on PATH."
            )
        command = [javac, "--release", "8", "-nowarn", "-d", str(HIVE_LLAP_STUB_CLASSES)]
        subprocess.run([*command, str(HIVE_LLAP_STUB_SOURCE)], check=True, capture_output=True)
    return HIVE_LLAP_STUB_CLASSES


@dataclass
class ThriftServer(Server):
    """Spark's HiveServer2 (Thrift) server, in local mode or on a master."""

    master: str = "local[2]"
    driver_memory: str = "2g"
    # On a standalone master: what each executor takes from a Worker.
    executor_memory: str = "1g"

    def command(self) -> list[str]:
        home = spark_home()
        cluster = []
        if self.master.startswith("spark://"):
            cluster = [
                "--conf", f"spark.executor.memory={self.executor_memory}",
                "--conf", "spark.executor.cores=1",
            ]  # fmt: skip
        return [
            str(home / "bin" / "spark-submit"),
            "--class", "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2",
            "--master", self.master,
            "--name", f"spark_query_catalog_{self.name}",
            "--driver-memory", self.driver_memory,
            *cluster,
            *spark_confs(self.host, self.directory),
            # Lets Hive's function registry load (conf/hive_llap_stub).
            "--driver-class-path", str(hive_llap_stub()),
            "spark-internal",
            "--hiveconf", f"hive.server2.thrift.bind.host={self.host}",
            "--hiveconf", f"hive.server2.thrift.port={self.port}",
            # Hive's default (doAs=true) runs each session as its client's
            # user. Closing such a session opens a new Hive client, which
            # loads Hive's function registry; that needs a hive-llap class the
            # pyspark wheel does not ship. The first such load fails
            # (NoClassDefFoundError: LlapSigner$Signable) and every later one
            # hangs. doAs=false makes it rare (Spark runs all SQL as the
            # server's user anyway); the stub on the class path above makes it
            # harmless.
            "--hiveconf", "hive.server2.enable.doAs=false",
        ]  # fmt: skip


def check_thrift(host: str, port: int, user: str = "dbt", timeout: float = 5.0) -> str:
    """What a dbt `thrift` target would meet at host:port, as an actionable sentence.

    Raises ServerError when dbt could not work there."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise ServerError(
            f"cannot resolve host {host!r} ({error.strerror}). Check SPARK_THRIFT_HOST "
            "(the thrift target's host in profiles/profiles.yml)."
        ) from error
    if not port_open(host, port, timeout=timeout):
        raise ServerError(
            f"nothing accepts connections on {host}:{port} ({addresses[0][4][0]}). "
            "Start a server with `make thrift-start` (python -m sqc.servers start thrift), "
            "or point SPARK_THRIFT_HOST / SPARK_THRIFT_PORT at a running one."
        )
    import threading

    from pyhive import hive

    outcome: dict[str, object] = {}

    def handshake() -> None:
        try:
            connection = hive.connect(host=host, port=port, username=user)
            cursor = connection.cursor()
            cursor.execute("select version()")
            outcome["version"] = cursor.fetchone()[0]
            connection.close()
        except Exception as error:  # PyHive raises transport errors of several kinds
            outcome["error"] = error

    # PyHive has no timeout: a port that accepts but never answers would hang.
    thread = threading.Thread(target=handshake, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        outcome["error"] = TimeoutError(f"no HiveServer2 answer within {timeout:.0f}s")
    version = outcome.get("version")
    if "error" in outcome:
        error = outcome["error"]
        raise ServerError(
            f"{host}:{port} accepts connections but is not a HiveServer2 that lets user "
            f"{user!r} in ({type(error).__name__}: {error}). Check the port, and that the "
            "server's authentication (hive.server2.authentication) matches the profile's "
            "`auth` (see README, Thrift authentication)."
        ) from error
    return f"{host}:{port} is a Spark Thrift server (Spark {version}); {user!r} can run queries"
