"""The overhead bench sorts dbt's statements into kinds by node and first words."""

import pytest

from sqc.bench.overhead import kind


@pytest.mark.parametrize(
    ("node", "sql", "expected"),
    [
        ("model.p.m", '/* {"app": "dbt"} */\ncreate table s.m using parquet as select 1', "work"),
        ("model.p.m", "  WITH a AS (select 1) select * from a", "work"),
        ("model.p.m", "show table extended in s like '*'", "metadata"),
        ("model.p.m", "describe extended s.m", "metadata"),
        ("model.p.m", "drop table if exists s.m__dbt_tmp", "metadata"),
        ("", "create schema if not exists s", "metadata"),
        ("model.p.m", "explain formatted select 1", "plan recorder"),
        ("model.p.m", "alter table s.m set tblproperties ('sqc.plan' = 'x')", "plan recorder"),
        ("seed.p.s", "create temporary view s__csv using csv options (path 'x')", "seeds"),
        ("seed.p.s", "cache table s__csv_parsed as select * from s__csv", "seeds"),
        ("seed.p.s", "uncache table if exists s__csv_parsed", "seeds"),
        ("seed.p.s", "create table s.s using parquet as select * from s__csv", "seeds"),
        ("test.p.not_null_m_id", "select count(*) from s.m where id is null", "tests"),
        ("unit_test.p.m.t", "create temporary view fixture as select 1 as id", "tests"),
        ("model.p.m", "refresh table s.m", "metadata"),
        (
            "model.p.m",
            "create table if not exists s.m__spark_query_catalog_probe (probe int)",
            "orphan probe",
        ),
        (
            "seed.p.s",
            "alter table s.s__spark_query_catalog_probe set location 'file:/w/s.db/s'",
            "orphan probe",
        ),
        ("seed.p.s", "describe table extended s.s__spark_query_catalog_probe", "orphan probe"),
    ],
)
def test_kind(node: str, sql: str, expected: str) -> None:
    assert kind(node, sql) == expected
