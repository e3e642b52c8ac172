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
import os
import sys

from sqc.servers.base import Server, ServerError
from sqc.servers.cluster import Cluster
from sqc.servers.connect import ConnectServer
from sqc.servers.thrift import ThriftServer, check_thrift


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
