"""Start, stop and report on the Spark servers the dbt targets connect to.

    python -m sqc.servers start thrift [--port 10000] [--host 127.0.0.1]
    python -m sqc.servers start cluster [--workers 2]   # Master, Workers, Thrift on 10001
    python -m sqc.servers start connect [--port 15002]  # Spark Connect (gRPC)
    python -m sqc.servers status all
    python -m sqc.servers check thrift    # can dbt's thrift target work there?
    python -m sqc.servers stop thrift

Everything comes from the pyspark wheel (its jars and bin/ scripts); the
servers bind to 127.0.0.1 unless told otherwise. Pid, log, warehouse and
metastore of each server live under .state/servers/<name>/. Thrift servers
also get one Java type the wheel lacks (conf/hive_llap_stub), compiled with
the JDK's javac into .state/hive_llap_stub/ the first time it is needed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sqc.paths import ROOT

STATE = Path(os.environ.get("SQC_SERVER_STATE", ROOT / ".state" / "servers"))
HIVE_LLAP_STUB_SOURCE = ROOT / "conf" / "hive_llap_stub" / "LlapSigner.java"
HIVE_LLAP_STUB_CLASSES = ROOT / ".state" / "hive_llap_stub" / "classes"


class ServerError(RuntimeError):
    """A server did not start, or is not where it should be."""


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


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def port_open(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


@dataclass
class Server:
    name: str
    host: str = "127.0.0.1"
    port: int = 10000

    @property
    def directory(self) -> Path:
        return STATE / self.name

    @property
    def pid_file(self) -> Path:
        return self.directory / "pid"

    @property
    def log_file(self) -> Path:
        return self.directory / "server.log"

    def pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        return pid

    def command(self) -> list[str]:
        raise NotImplementedError

    def environment(self) -> dict[str, str]:
        home = spark_home()
        return {
            **os.environ,
            "SPARK_HOME": str(home),
            "SPARK_LOCAL_IP": self.host,
            "SPARK_LOG_DIR": str(self.directory / "logs"),
            "SPARK_PID_DIR": str(self.directory),
            "PYSPARK_PYTHON": sys.executable,
        }

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_file.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return "(no log)"
        return "\n".join(text[-lines:])

    def start(self, timeout: float = 180.0) -> None:
        if self.pid() is not None and port_open(self.host, self.port):
            print(f"{self.name}: already running (pid {self.pid()}) on {self.host}:{self.port}")
            return
        if port_open(self.host, self.port):
            raise ServerError(
                f"{self.name}: port {self.host}:{self.port} is already taken by another "
                "process; stop it or choose another port (--port)."
            )
        self.directory.mkdir(parents=True, exist_ok=True)
        log = self.log_file.open("w")
        process = subprocess.Popen(
            self.command(),
            cwd=self.directory,
            env=self.environment(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.pid_file.write_text(str(process.pid))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise ServerError(
                    f"{self.name}: the server exited with code {process.returncode} before "
                    f"opening {self.host}:{self.port}. Last lines of {self.log_file}:\n"
                    + self.log_tail()
                )
            if port_open(self.host, self.port):
                print(f"{self.name}: listening on {self.host}:{self.port} (pid {process.pid})")
                return
            time.sleep(0.5)
        self.stop()
        raise ServerError(
            f"{self.name}: {self.host}:{self.port} did not open within {timeout:.0f}s. "
            f"Last lines of {self.log_file}:\n" + self.log_tail()
        )

    def stop(self, timeout: float = 30.0) -> None:
        pid = self.pid()
        if pid is None:
            print(f"{self.name}: not running")
            self.pid_file.unlink(missing_ok=True)
            return
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline and self.pid() is not None:
                # Reap it if it is our child, or it lingers as a zombie.
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
                time.sleep(0.2)
            if self.pid() is None:
                break
        self.pid_file.unlink(missing_ok=True)
        print(f"{self.name}: stopped (pid {pid})")

    def status(self) -> str:
        pid = self.pid()
        listening = port_open(self.host, self.port)
        if pid and listening:
            return f"{self.name}: running, pid {pid}, listening on {self.host}:{self.port}"
        if pid:
            return f"{self.name}: process {pid} alive but {self.host}:{self.port} is not open"
        if listening:
            return f"{self.name}: not started here, but {self.host}:{self.port} is open"
        return f"{self.name}: stopped"


def _spark_confs(host: str, state: Path) -> list[str]:
    """spark-submit settings every driver here shares: loopback, UTC, no UI,
    warehouse and metastore under the server's own state folder."""
    return [
        "--conf", f"spark.driver.host={host}",
        "--conf", f"spark.driver.bindAddress={host}",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.sql.session.timeZone=UTC",
        "--conf", "spark.sql.shuffle.partitions=4",
        # INT64 micros, not legacy INT96: Spark can skip files by min/max time.
        "--conf", "spark.sql.parquet.outputTimestampType=TIMESTAMP_MICROS",
        "--conf", f"spark.sql.warehouse.dir={state / 'warehouse'}",
        "--conf", "spark.hadoop.javax.jdo.option.ConnectionURL="
        f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true",
        "--conf", f"spark.driver.extraJavaOptions=-Dderby.system.home={state} "
        f"-Dlog4j2.configurationFile={ROOT / 'conf' / 'log4j2.properties'}",
    ]  # fmt: skip


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
            *_spark_confs(self.host, self.directory),
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


@dataclass
class ConnectServer(Server):
    """A Spark Connect server (gRPC), through the wheel's start-connect-server.sh,
    kept in the foreground (--wait) so that the pid is the server's."""

    port: int = 15002
    master: str = "local[2]"
    driver_memory: str = "2g"

    def command(self) -> list[str]:
        return [
            str(spark_home() / "sbin" / "start-connect-server.sh"),
            "--wait",
            "--master", self.master,
            "--driver-memory", self.driver_memory,
            "--conf", f"spark.connect.grpc.binding.address={self.host}",
            "--conf", f"spark.connect.grpc.binding.port={self.port}",
            # The Derby metastore under the state folder, as the Thrift server has.
            "--conf", "spark.sql.catalogImplementation=hive",
            *_spark_confs(self.host, self.directory),
        ]  # fmt: skip


@dataclass
class Master(Server):
    """A Spark standalone Master: port 7077 for Workers and drivers, and a
    web UI (its JSON at /json/) on webui_port."""

    port: int = 7077
    webui_port: int = 8090

    @property
    def url(self) -> str:
        return f"spark://{self.host}:{self.port}"

    def command(self) -> list[str]:
        return [
            str(spark_home() / "bin" / "spark-class"),
            "org.apache.spark.deploy.master.Master",
            "--host", self.host,
            "--port", str(self.port),
            "--webui-port", str(self.webui_port),
        ]  # fmt: skip

    def state(self) -> dict[str, object]:
        """The Master's own report: workers, cores, running applications."""
        import json
        import urllib.request

        address = f"http://{self.host}:{self.webui_port}/json/"
        with urllib.request.urlopen(address, timeout=5) as response:
            return dict(json.load(response))

    def alive_workers(self) -> int:
        try:
            workers = self.state().get("workers", [])
        except OSError:
            return 0
        return sum(1 for w in workers if isinstance(w, dict) and w.get("state") == "ALIVE")


@dataclass
class Worker(Server):
    """A standalone Worker. Its executors run in work_dir, under the state
    folder (by default a Worker writes into SPARK_HOME, inside the venv)."""

    master_url: str = "spark://127.0.0.1:7077"
    cores: int = 1
    memory: str = "2g"
    webui_port: int = 8091

    @property
    def work_dir(self) -> Path:
        return self.directory / "work"

    def command(self) -> list[str]:
        return [
            str(spark_home() / "bin" / "spark-class"),
            "org.apache.spark.deploy.worker.Worker",
            self.master_url,
            "--host", self.host,
            "--port", str(self.port),
            "--webui-port", str(self.webui_port),
            "--cores", str(self.cores),
            "--memory", self.memory,
            "--work-dir", str(self.work_dir),
        ]  # fmt: skip


@dataclass
class Cluster:
    """A standalone cluster on this machine, and a Thrift server on it:
    Master, `workers` Workers, then HiveServer2 with --master spark://..."""

    name: str = "cluster"
    host: str = "127.0.0.1"
    port: int = 10001  # the Thrift server's
    workers: int = 2
    master_port: int = 7077
    webui_port: int = 8090

    @property
    def master(self) -> Master:
        return Master(
            f"{self.name}_master", self.host, self.master_port, webui_port=self.webui_port
        )

    def worker(self, index: int) -> Worker:
        return Worker(
            f"{self.name}_worker{index}",
            self.host,
            self.master_port + 10 + index,
            master_url=self.master.url,
            webui_port=self.webui_port + 1 + index,
        )

    @property
    def thrift(self) -> ThriftServer:
        return ThriftServer(f"{self.name}_thrift", self.host, self.port, master=self.master.url)

    def members(self) -> list[Server]:
        return [self.master, *(self.worker(i) for i in range(self.workers)), self.thrift]

    def start(self, timeout: float = 180.0) -> None:
        master = self.master
        master.start(timeout)
        for index in range(self.workers):
            self.worker(index).start(timeout)
        deadline = time.monotonic() + timeout
        while master.alive_workers() < self.workers:
            if time.monotonic() > deadline:
                raise ServerError(
                    f"{self.name}: {master.alive_workers()} of {self.workers} Workers "
                    f"registered with {master.url} within {timeout:.0f}s. Last lines of "
                    f"{self.worker(0).log_file}:\n" + self.worker(0).log_tail()
                )
            time.sleep(0.5)
        self.thrift.start(timeout)

    def stop(self) -> None:
        for server in reversed(self.members()):
            server.stop()

    def status(self) -> str:
        return "\n".join(server.status() for server in self.members())


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


def _servers(args: argparse.Namespace) -> dict[str, Server | Cluster]:
    """Each server the targets use, where the environment says it is."""
    env = os.environ
    return {
        "thrift": ThriftServer(
            "thrift",
            host=args.host or env.get("SPARK_THRIFT_HOST", "127.0.0.1"),
            port=args.port or int(env.get("SPARK_THRIFT_PORT", "10000")),
        ),
        "cluster": Cluster(
            "cluster",
            host=args.host or env.get("SPARK_CLUSTER_HOST", "127.0.0.1"),
            port=args.port or int(env.get("SPARK_CLUSTER_PORT", "10001")),
            workers=args.workers,
        ),
        "connect": ConnectServer(
            "connect",
            host=args.host or env.get("SPARK_CONNECT_HOST", "127.0.0.1"),
            port=args.port or int(env.get("SPARK_CONNECT_PORT", "15002")),
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["start", "stop", "status", "restart", "check"])
    parser.add_argument(
        "name", nargs="?", default="thrift", choices=["thrift", "cluster", "connect", "all"]
    )
    parser.add_argument("--host", default=None, help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--workers", type=int, default=2, help="cluster Workers (default 2)")
    args = parser.parse_args(argv)
    servers = _servers(args)
    chosen = list(servers.values()) if args.name == "all" else [servers[args.name]]
    try:
        for server in chosen:
            if args.action in ("stop", "restart"):
                server.stop()
            if args.action in ("start", "restart"):
                server.start(timeout=args.timeout)
            if args.action == "status":
                print(server.status())
            if args.action == "check":
                thrift = server.thrift if isinstance(server, Cluster) else server
                if not isinstance(thrift, ThriftServer):
                    raise ServerError(f"check speaks HiveServer2: {server.name} is not one")
                user = os.environ.get("SPARK_THRIFT_USER", "dbt")
                print(check_thrift(thrift.host, thrift.port, user))
    except ServerError as error:
        print(str(error), file=sys.stderr)
        return 1
    return 0
