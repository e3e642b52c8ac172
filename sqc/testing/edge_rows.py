"""Rows that break naive SQL generation, as tables of a test project: the
input the pivot and unpivot tests share."""

from __future__ import annotations

from sqc.testing.dbt_harness import DbtProject, values_sql

# Quotes, backslashes, names that need backticks, a value spelled like a
# number and SQL-looking text.
NASTY_VALUES = ["it's", "back\\slash", "2012", "twenty-twelve", "an.id", "x`y", "'; drop"]
# (grp, name, points): every nasty value, three of them twice, two NULL names.
NASTY_ROWS = [
    (f"g{i % 3}", value, i)
    for i, value in enumerate([*NASTY_VALUES, *NASTY_VALUES[:3], None, None])
]


def create_nasty_tables(project: DbtProject) -> None:
    """Tables `nasty` (NASTY_ROWS) and `empty` (no rows), both with the
    columns grp string, name string, points int."""
    columns = [("grp", "string"), ("name", "string"), ("points", "int")]
    for name, rows in [("nasty", NASTY_ROWS), ("empty", [])]:
        project.sql(
            f"create table {project.table(name)} using parquet as {values_sql(rows, columns)}"
        )
