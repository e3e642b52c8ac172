"""pivot and unpivot on edge-case data, checked against Python computations."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sqc import reference
from sqc.dbt_harness import DbtProject, values_sql

# Values that break naive SQL generation: quotes, backslashes, names that
# need backticks, a value spelled 'null' and SQL-looking text.
NASTY_VALUES = ["it's", "back\\slash", "2012", "twenty-twelve", "an.id", "x`y", "'; drop"]
ROWS = [
    (f"g{i % 3}", value, i)
    for i, value in enumerate([*NASTY_VALUES, *NASTY_VALUES[:3], None, None])
]


@pytest.fixture(scope="module")
def edge(project: DbtProject) -> DbtProject:
    columns = [("grp", "string"), ("name", "string"), ("points", "int")]
    for name, rows in [("nasty", ROWS), ("empty", [])]:
        project.sql(
            f"create table {project.table(name)} using parquet as {values_sql(rows, columns)}"
        )
    project.sql(
        f"create table {project.table('mixed')} using parquet as "
        "select * from values "
        "(1, 10, cast(100 as bigint), cast(1.5 as decimal(5,2)), 2.5d, 'x', "
        "date'2024-01-02', timestamp'2024-01-03 04:05:06', 7), "
        "(2, null, null, null, null, null, null, null, 8) "
        "as t(id, a_int, b_bigint, c_decimal, d_double, e_string, f_date, g_ts, `2012`)"
    )
    return project


def test_pivot_discovers_nasty_values_and_null(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ pivot('" + edge.table("nasty") + "', 'name', 'sum(points)', group_by='grp') }}"
    )
    expected = reference.pivot_sum(ROWS)
    values = sorted(set(NASTY_VALUES))
    # Sorted as Spark sorts (NULL first), each value its own column.
    assert [name for name, _ in edge.columns(sql)] == ["grp", "null", *values]
    got = {row.grp: row.asDict() for row in edge.sql(sql)}
    assert set(got) == set(expected)
    for grp, cells in expected.items():
        for value in [None, *values]:
            column = "null" if value is None else value
            assert got[grp][column] == cells.get(value), (grp, value)


def test_pivot_given_values_with_aliases_and_several_aggregates(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ pivot('" + edge.table("nasty") + "', 'name', "
        "{'total': 'sum(points)', 'n': 'count(*)'}, "
        "values={\"it's\": 'its', none: 'missing', 'back\\\\slash': 'slash'}, "
        "group_by='grp') }}"
    )
    assert [name for name, _ in edge.columns(sql)] == [
        "grp",
        "its_total",
        "its_n",
        "missing_total",
        "missing_n",
        "slash_total",
        "slash_n",
    ]
    expected = reference.pivot_sum(ROWS)
    for row in edge.sql(sql):
        assert row.its_total == expected[row.grp].get("it's")
        assert row.missing_total == expected[row.grp].get(None)
        assert row.slash_total == expected[row.grp].get("back\\slash")
        # A pivot cell with no rows is NULL, even for count(*).
        null_rows = sum(1 for g, v, _ in ROWS if g == row.grp and v is None)
        assert row.missing_n == (null_rows or None)


def test_pivot_tuple_values(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ pivot('" + edge.table("nasty") + "', ['grp', 'name'], 'sum(points)', "
        "values=[['g0', \"it's\"], ['g2', none]], group_by=[]) }}"
    )
    assert "for (grp, name) in (" in sql
    [row] = edge.sql(sql)
    expected = reference.pivot_sum(ROWS)
    assert row["g0_it's"] == expected["g0"].get("it's")
    assert row["g2_null"] == expected["g2"].get(None)


def test_pivot_group_by_drops_other_columns(edge: DbtProject) -> None:
    """Without group_by, every other column is a key; with it, only the keys."""
    without = edge.sql(
        edge.compile_inline(
            "{{ pivot('" + edge.table("nasty") + "', 'name', 'count(*)', values=['2012']) }}"
        )
    )
    with_keys = edge.sql(
        edge.compile_inline(
            "{{ pivot('" + edge.table("nasty") + "', 'name', 'count(*)', "
            "values=['2012'], group_by='grp') }}"
        )
    )
    # `points` is unique per row, so without group_by it splits every group.
    assert len(without) == len(ROWS)
    assert len(with_keys) == len({g for g, _, _ in ROWS})


def test_pivot_on_empty_input(edge: DbtProject) -> None:
    message = edge.compile_error(
        "{{ pivot('" + edge.table("empty") + "', 'name', 'sum(points)', group_by='grp') }}"
    )
    assert "spark_query_catalog.pivot:" in message and "no values" in message
    rows = edge.sql(
        edge.compile_inline(
            "{{ pivot('" + edge.table("empty") + "', 'name', 'sum(points)', "
            "values=['a'], group_by='grp') }}"
        )
    )
    assert rows == []


def test_unpivot_nasty_names_as_columns_and_labels(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + "', columns={'twenty-twelve': '2012', "
        "\"it's\": 'a_int'}, cast_to='bigint', remove=['b_bigint', 'c_decimal', "
        "'d_double', 'e_string', 'f_date', 'g_ts']) }}"
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
    edge: DbtProject, columns: list[str], value_type: str, expected: list[object] | None
) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + f"', columns={columns!r}) }}}}"
    )
    assert dict(edge.columns(sql))["value"] == value_type
    rows = edge.sql(f"select * from ({sql}) as unpivoted where id = 1")
    assert [r.name for r in rows] == columns
    if expected is not None:
        assert [r.value for r in rows] == expected
    # Row 2 is all NULL: dropped by default.
    assert edge.sql(f"select * from ({sql}) as unpivoted where id = 2") == []


def test_unpivot_cast_to_wins(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + "', columns=['a_int', 'b_bigint'], "
        "cast_to='string') }}"
    )
    assert dict(edge.columns(sql))["value"] == "string"


@pytest.mark.parametrize(("include_nulls", "row_count"), [(False, 2), (True, 4)])
def test_unpivot_null_modes(edge: DbtProject, include_nulls: bool, row_count: int) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("mixed") + "', columns=['a_int', 'b_bigint'], "
        f"include_nulls={str(include_nulls).lower()}) }}}}"
    )
    assert len(edge.sql(sql)) == row_count


def test_multi_value_unpivot_drops_only_all_null_rows(edge: DbtProject) -> None:
    edge.sql(
        f"create table {edge.table('pairs')} using parquet as "
        "select * from values (1, 1, null, null, null), (2, null, null, 3, 4) "
        "as t(id, x1, y1, x2, y2)"
    )
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("pairs") + "', columns={'one': ['x1', 'y1'], "
        "'two': ['x2', 'y2']}, name_column='pair', value_column=['x', 'y']) }}"
    )
    got = sorted((r.id, r.pair, r.x, r.y) for r in edge.sql(sql))
    assert got == [(1, "one", 1, None), (2, "two", 3, 4)]


def test_unpivot_empty_input(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("empty") + "', columns=['name', 'grp']) }}"
    )
    assert [name for name, _ in edge.columns(sql)] == ["points", "name", "value"]
    assert edge.sql(sql) == []


def test_unpivot_default_keeps_other_columns_as_identifiers(edge: DbtProject) -> None:
    sql = edge.compile_inline(
        "{{ unpivot('" + edge.table("nasty") + "', exclude=['grp', 'points']) }}"
    )
    assert [name for name, _ in edge.columns(sql)] == ["grp", "points", "name", "value"]
    assert len(edge.sql(sql)) == sum(1 for _, name, _ in ROWS if name is not None)
