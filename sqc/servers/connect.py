"""A Spark Connect server (gRPC)."""

from __future__ import annotations

from dataclasses import dataclass

from sqc.servers.base import Server, spark_confs, spark_home


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
            *spark_confs(self.host, self.directory),
        ]  # fmt: skip
