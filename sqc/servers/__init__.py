"""The Spark servers the dbt targets connect to, one module each:
`thrift` (a Thrift server, and the check of one), `connect` (Spark Connect),
`cluster` (Master, Workers and a Thrift server); `base` what they share;
`cli` the command line (`python -m sqc.servers start thrift`)."""

from sqc.servers.base import Server, ServerError
from sqc.servers.cluster import Cluster
from sqc.servers.connect import ConnectServer
from sqc.servers.thrift import ThriftServer, check_thrift

__all__ = ["Cluster", "ConnectServer", "Server", "ServerError", "ThriftServer", "check_thrift"]
