"""unpivot on Spark, by both methods (UNPIVOT and stack()): NULLs, awkward
names, mixed types, both NULL modes, empty input, checked against Python
computations. Each test runs for both: they give the same rows and types."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sqc.testing.dbt_harness import DbtProject
from sqc.testing.edge_rows import NASTY_ROWS as ROWS
from sqc.testing.edge_rows import create_nasty_tables


@pytest.fixture(scope="module")
def edge(project: DbtProject) -> DbtProject:
    create_nasty_tables(project)
    project.sql(
        f"create table {project.table('mixed')} using parquet as "
        "select * from values "
        "(1, 10, cast(100 as bigint), cast(1.5 as decimal(5,2)), 2.5d, 'x', "
        "date'2024-01-02', timestamp'2024-01-03 04:05:06', 7), "
        "(2, null, null, null, null, null, null, null, 8) "
        "as t(id, a_int, b_bigint, c_decimal, d_double, e_string, f_date, g_ts, `2012`)"
    )
    return project


@pytest.fixture(params=["unpivot", "stack"])
def method(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_unpivot_nasty_names_as_columns_and_labels(edge: DbtProject, method: str) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + "', columns={'twenty-twelve': '2012', "
        "\"it's\": 'a_int'}, cast_to='bigint', remove=['b_bigint', 'c_decimal', "
        "'d_double', 'e_string', 'f_date', 'g_ts'], method='" + method + "') }}"
    )
    rows = edge.sql(sql)
    got = sorted((r.id, r.name, r.value) for r in rows)
    assert got == [(1, "it's", 10), (1, "twenty-twelve", 7), (2, "twenty-twelve", 8)]


@pytest.mark.parametrize(
    ("columns", "value_type", "expected"),
    [
        (["a_int", "b_bigint"], "bigint", [10, 100]),
        (["a_int", "c_decimal"], "decimal(12,2)", [Decimal("10.00"), Decimal("1.50")]),
        (["b_bigint", "d_double"], "double", [100.0, 2.5]),
        (["a_int", "e_string"], "string", ["10", "x"]),
        (["f_date", "g_ts"], "timestamp", None),
        (["d_double", "f_date"], "string", ["2.5", "2024-01-02"]),
    ],
)
def test_unpivot_mixed_types_use_their_common_type(
    edge: DbtProject,
    method: str,
    columns: list[str],
    value_type: str,
    expected: list[object] | None,
) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('"
        + edge.table("mixed")
        + f"', columns={columns!r}, method='"
        + method
        + "') }}"
    )
    assert dict(edge.columns(sql))["value"] == value_type
    rows = edge.sql(f"select * from ({sql}) as unpivoted where id = 1")
    assert [r.name for r in rows] == columns
    if expected is not None:
        assert [r.value for r in rows] == expected
    # Row 2 is all NULL: dropped by default.
    assert edge.sql(f"select * from ({sql}) as unpivoted where id = 2") == []


def test_unpivot_cast_to_wins(edge: DbtProject, method: str) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + "', columns=['a_int', 'b_bigint'], "
        "cast_to='string', method='" + method + "') }}"
    )
    assert dict(edge.columns(sql))["value"] == "string"


@pytest.mark.parametrize(("include_nulls", "row_count"), [(False, 2), (True, 4)])
def test_unpivot_null_modes(
    edge: DbtProject, method: str, include_nulls: bool, row_count: int
) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + "', columns=['a_int', 'b_bigint'], "
        f"include_nulls={str(include_nulls).lower()}, method='" + method + "') }}"
    )
    assert len(edge.sql(sql)) == row_count


def test_multi_value_unpivot_drops_only_all_null_rows(edge: DbtProject, method: str) -> None:
    edge.sql(
        f"create table if not exists {edge.table('pairs')} using parquet as "
        "select * from values (1, 1, null, null, null), (2, null, null, 3, 4) "
        "as t(id, x1, y1, x2, y2)"
    )
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("pairs") + "', columns={'one': ['x1', 'y1'], "
        "'two': ['x2', 'y2']}, name_column='pair', value_column=['x', 'y'], method='"
        + method
        + "') }}"
    )
    got = sorted((r.id, r.pair, r.x, r.y) for r in edge.sql(sql))
    assert got == [(1, "one", 1, None), (2, "two", 3, 4)]


def test_unpivot_empty_input(edge: DbtProject, method: str) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('"
        + edge.table("empty")
        + "', columns=['name', 'grp'], method='"
        + method
        + "') }}"
    )
    assert [name for name, _ in edge.columns(sql)] == ["points", "name", "value"]
    assert edge.sql(sql) == []


def test_unpivot_default_keeps_other_columns_as_identifiers(edge: DbtProject, method: str) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('"
        + edge.table("nasty")
        + "', exclude=['grp', 'points'], method='"
        + method
        + "') }}"
    )
    assert [name for name, _ in edge.columns(sql)] == ["grp", "points", "name", "value"]
    assert len(edge.sql(sql)) == sum(1 for _, name, _ in ROWS if name is not None)


def test_stack_plans_a_generate_and_no_shuffle(edge: DbtProject) -> None:
    """From "Stack operation in Apache Spark SQL": the stack() form runs as a
    Generate node over one scan."""
    sql = edge.compile_inline(
        "{{ unpivot('"
        + edge.table("mixed")
        + "', columns=['a_int', 'b_bigint'], method='stack') }}"
    )
    plan = edge.sql(f"explain formatted {sql}")[0][0].split("== Physical Plan ==")[1]
    assert "Generate" in plan and "Exchange" not in plan and "Expand" not in plan
