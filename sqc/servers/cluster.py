"""A standalone cluster on this machine: a Master, Workers and a Thrift
server in front of them."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from sqc.servers.base import Server, ServerError, spark_home
from sqc.servers.thrift import ThriftServer


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
