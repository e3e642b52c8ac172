"""The Spark settings every target starts with: the session target's
(profiles/profiles.yml) and the servers' (sqc.servers), written twice."""

from __future__ import annotations

from pathlib import Path

import yaml

from sqc.paths import ROOT
from sqc.servers.base import spark_confs


def test_the_servers_start_with_the_session_targets_sql_settings() -> None:
    """Every fixed `spark.sql.*` setting of the session target (the codegen
    cache, the metastore's fallback, the time zone...) is one the Thrift,
    cluster and Connect servers start with too, with the same value."""
    profile = yaml.safe_load((ROOT / "profiles" / "profiles.yml").read_text())
    session = profile["spark_query_catalog"]["outputs"]["session"]["server_side_parameters"]
    fixed = {
        key: str(value)
        for key, value in session.items()
        if key.startswith("spark.sql.") and "{{" not in str(value)
    }
    assert "spark.sql.codegen.cache.maxEntries" in fixed
    assert "spark.sql.hive.metastorePartitionPruningFallbackOnException" in fixed
    confs = spark_confs("127.0.0.1", Path("/tmp/state"))
    given = dict(conf.split("=", 1) for conf in confs[1::2])
    assert confs[::2] == ["--conf"] * len(given)
    assert {key: given.get(key) for key in fixed} == fixed
