"""What every server here shares: its state folder under .state/servers/,
starting and stopping a process group, waiting for its port, and the
spark-submit settings of a driver on this machine."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from sqc.paths import ROOT

STATE = Path(os.environ.get("SQC_SERVER_STATE", ROOT / ".state" / "servers"))


class ServerError(RuntimeError):
    """A server did not start, or is not where it should be."""


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


def spark_confs(host: str, state: Path) -> list[str]:
    """spark-submit settings every driver here shares: loopback, UTC, no UI,
    warehouse and metastore under the server's own state folder."""
    return [
        "--conf", f"spark.driver.host={host}",
        "--conf", f"spark.driver.bindAddress={host}",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.sql.session.timeZone=UTC",
        "--conf", "spark.sql.shuffle.partitions=4",
        # Room for the generated classes of a run's statements (docs/targets.md).
        "--conf", "spark.sql.codegen.cache.maxEntries=1000",
        # A partition filter the metastore refuses: filtered in Spark (docs/targets.md).
        "--conf", "spark.sql.hive.metastorePartitionPruningFallbackOnException=true",
        # INT64 micros, not legacy INT96: Spark can skip files by min/max time.
        "--conf", "spark.sql.parquet.outputTimestampType=TIMESTAMP_MICROS",
        "--conf", f"spark.sql.warehouse.dir={state / 'warehouse'}",
        "--conf", "spark.hadoop.javax.jdo.option.ConnectionURL="
        f"jdbc:derby:;databaseName={state / 'metastore_db'};create=true",
        "--conf", f"spark.driver.extraJavaOptions=-Dderby.system.home={state} "
        f"-Dlog4j2.configurationFile={ROOT / 'conf' / 'log4j2.properties'}",
    ]  # fmt: skip
