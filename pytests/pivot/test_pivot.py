"""pivot and pivot_values on Spark: discovered values, NULLs, quotes and
backslashes in values, awkward names, row keys, empty input and --empty,
checked against Python computations."""

from __future__ import annotations

from textwrap import dedent

import pytest

from sqc.testing import reference
from sqc.testing.dbt_harness import DbtProject
from sqc.testing.edge_rows import NASTY_ROWS as ROWS
from sqc.testing.edge_rows import NASTY_VALUES, create_nasty_tables


@pytest.fixture(scope="module")
def edge(project: DbtProject) -> DbtProject:
    create_nasty_tables(project)
    project.sql(
        f"create table {project.table('teams')} using parquet as select * from values "
        "('team1', 'France', 3), ('team2', 'Poland', 4), (null, 'Poland', 1), "
        "('it''s', 'France', 2) as t(name, country, points)"
    )
    project.sql(
        f"create table {project.table('many_values')} using parquet as "
        "select id, cast(id % 7 as string) as name, id as points from range(0, 50)"
    )
    project.sql(
        f"create table {project.table('typed')} using parquet as select * from values "
        "(1, 'a', 7, date'2024-01-02', 1.50BD, true), "
        "(2, 'b', null, date'2024-01-01', 2.25BD, false), "
        "(3, null, 7, null, null, null) as t(id, label, size, day, price, flag)"
    )
    return project


def sql(text: str) -> str:
    return dedent(text).strip()


def test_pivot_discovered_values(edge: DbtProject) -> None:
    t = edge.table("teams")
    assert edge.compile_inline(
        f"{{{{ pivot('{t}', 'name', 'sum(points)', group_by='country') }}}}"
    ) == sql(f"""
        select *
        from (
            select
                country,
                name,
                points
            from {t}
        ) as pivot_source
            pivot (
                sum(points)
                for name in (
                    null as `null`,
                    'it\\'s' as `it's`,
                    'team1' as team1,
                    'team2' as team2
                )
            )
    """)


def test_pivot_too_many_values_names_column_count_and_fix(edge: DbtProject) -> None:
    message = edge.compile_error(
        "{{ pivot('" + edge.table("many_values") + "', 'name', 'sum(points)', "
        "group_by='id', max_values=5) }}"
    )
    assert "spark_query_catalog.pivot:" in message
    assert "name" in message
    assert "has 7 distinct values" in message
    assert "`max_values` (5)" in message
    assert "raise `max_values` to at least 7" in message


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
    """With on_no_values='fail', no values to discover is an error (by
    default, the row keys with a warning: package/test_package.py)."""
    message = edge.compile_error(
        "{{ pivot('" + edge.table("empty") + "', 'name', 'sum(points)', group_by='grp', "
        "on_no_values='fail') }}"
    )
    assert "spark_query_catalog.pivot:" in message and "no values" in message
    rows = edge.sql(
        edge.compile_inline(
            "{{ pivot('" + edge.table("empty") + "', 'name', 'sum(points)', "
            "values=['a'], group_by='grp') }}"
        )
    )
    assert rows == []


def test_pivot_with_no_row_keys_gives_one_grand_total_row(edge: DbtProject) -> None:
    """group_by=[]: no row keys, as Spark's PIVOT over a projection of only the
    pivot and value columns: one row, each value's total over all groups."""
    rows = edge.sql(
        edge.compile_inline(
            "{{ pivot('" + edge.table("nasty") + "', 'name', 'sum(points)', group_by=[]) }}"
        )
    )
    assert len(rows) == 1
    totals: dict[object, int] = {}
    for _, name, points in ROWS:
        totals[name] = totals.get(name, 0) + points
    got = rows[0].asDict()
    assert got == {("null" if name is None else name): total for name, total in totals.items()}


def test_pivot_values_gives_the_discovered_values_typed(edge: DbtProject) -> None:
    """Sorted, NULL first; strings stay strings, integers and booleans come
    back as themselves, dates and decimals as text that PIVOT casts back."""
    table = edge.table("typed")
    compiled = edge.compile_inline(
        "{% set found = {'label': pivot_values('" + table + "', 'label'), "
        "'size': pivot_values('" + table + "', 'size'), "
        "'day': pivot_values('" + table + "', 'day'), "
        "'price': pivot_values('" + table + "', 'price'), "
        "'flag': pivot_values('" + table + "', 'flag'), "
        "'pair': pivot_values('" + table + "', ['label', 'size'])} %}"
        "{{ tojson(found) }}"
    )
    import json

    assert json.loads(compiled) == {
        "label": [None, "a", "b"],
        "size": [None, 7],
        "day": [None, "2024-01-01", "2024-01-02"],
        "price": [None, "1.50", "2.25"],
        "flag": [None, False, True],
        "pair": [[None, 7], ["a", 7], ["b", None]],
    }


def test_a_pivot_on_pivot_values_equals_the_discovering_pivot(edge: DbtProject) -> None:
    table = edge.table("typed")
    for column in ("day", "price", "flag"):
        discovered = edge.sql(
            edge.compile_inline(
                "{{ pivot('" + table + f"', '{column}', 'count(*)', group_by='label') }}}}"
            )
        )
        given = edge.sql(
            edge.compile_inline(
                "{{ pivot('" + table + f"', '{column}', 'count(*)', group_by='label', "
                "values=pivot_values('" + table + f"', '{column}')) }}}}"
            )
        )
        assert sorted(map(tuple, given), key=str) == sorted(map(tuple, discovered), key=str), column


def test_pivot_with_no_values_under_empty_compiles_to_its_row_keys(edge: DbtProject) -> None:
    """Under --empty an input built empty has no values: the pivot still
    compiles (its row keys, no rows), even with on_no_values='fail'; without
    --empty that is an error."""
    call = (
        "{{ pivot('" + edge.table("empty") + "', 'name', 'sum(points)', group_by='grp', "
        "on_no_values='fail') }}"
    )
    result = edge.invoke("compile", "--inline", call, "--empty", "--log-level", "none")
    compiled = str(result.result.results[0].node.compiled_code).strip()
    assert compiled == sql(f"""
        select
            grp
        from {edge.table("empty")}
        group by grp
    """)
    assert edge.sql(compiled) == []
    assert "no values" in edge.compile_error(call)


@pytest.mark.parametrize(
    ("relation", "words"),
    [
        (
            "api.Relation.create(schema=target.schema, identifier='not_built_yet')",
            "does not exist (yet)",
        ),
        ("target.schema ~ '.not_built_yet'", "is not a table or view that exists"),
        ("'no_such_schema.teams'", "is not a table or view that exists"),
        ("'(select 1 as name)'", "is not the name of a table or view"),
    ],
)
def test_discovery_on_what_cannot_be_read_says_why_and_what_to_pass(
    edge: DbtProject, relation: str, words: str
) -> None:
    message = edge.compile_error("{{ pivot(" + relation + ", 'name', 'sum(points)') }}")
    assert (
        "spark_query_catalog.pivot: Discovering pivot `values` needs the columns of `relation`"
        in message
    )
    assert words in message
    assert "pass `values` explicitly" in message


# Array and struct pivot values: (grp, arr, st, stamps, v). Labels are Spark's
# own column names for such values (the value cast to a string), written out
# by hand.
NESTED = (
    "('g1', array(1, 1), named_struct('a', 1, 'b', 'x'), "
    "array(timestamp'2024-01-01 10:00:00.123456'), 10), "
    "('g1', array(2, 2), named_struct('a', 2, 'b', 'y''q'), "
    "array(timestamp'2024-01-01 10:00:00.123457'), 20), "
    "('g2', array(1, 1), named_struct('a', 1, 'b', 'x'), "
    "array(timestamp'2024-01-01 10:00:00.123456'), 5), "
    "('g2', null, null, null, 7), "
    "('g1', array(3, null), named_struct('a', cast(null as int), 'b', cast(null as string)), "
    "array(cast(null as timestamp)), 1), "
    "('g2', cast(array() as array<int>), named_struct('a', 2, 'b', 'y''q'), "
    "array(timestamp'2024-01-01 10:00:00.123457'), 2)"
)
# Spark's PIVOT fails on a NULL array or struct value: discovery leaves it out
# (with a warning), and the rows holding it are in no column.
NESTED_PIVOTS = {
    "arr": {
        "g1": {"[1, 1]": 10, "[2, 2]": 20, "[3, null]": 1},
        "g2": {"[]": 2, "[1, 1]": 5},
    },
    "st": {
        "g1": {"{null, null}": 1, "{1, x}": 10, "{2, y'q}": 20},
        "g2": {"{1, x}": 5, "{2, y'q}": 2},
    },
    "stamps": {
        "g1": {"[null]": 1, "[2024-01-01 10:00:00.123456]": 10, "[2024-01-01 10:00:00.123457]": 20},
        "g2": {"[2024-01-01 10:00:00.123456]": 5, "[2024-01-01 10:00:00.123457]": 2},
    },
}
NESTED_COLUMNS = {
    "arr": ["[]", "[1, 1]", "[2, 2]", "[3, null]"],
    "st": ["{null, null}", "{1, x}", "{2, y'q}"],
    "stamps": ["[null]", "[2024-01-01 10:00:00.123456]", "[2024-01-01 10:00:00.123457]"],
}


@pytest.fixture(scope="module")
def nested(edge: DbtProject) -> str:
    table = edge.table("nested")
    edge.sql(
        f"create table {table} using parquet as select * from values {NESTED} "
        "as t(grp, arr, st, stamps, v)"
    )
    return table


@pytest.mark.parametrize("column", sorted(NESTED_PIVOTS))
def test_pivot_discovers_array_and_struct_values(
    edge: DbtProject, nested: str, column: str
) -> None:
    """Arrays and structs (NULL elements and fields, an empty array, quotes,
    timestamps a microsecond apart) are discovered, sorted as Spark sorts
    them, and named as Spark's own PIVOT names them; the NULL value is left
    out, with a warning that says so."""
    compiled = edge.compile_inline(
        "{{ pivot('" + nested + f"', '{column}', 'sum(v)', group_by='grp') }}}}"
    )
    assert "from_json(" in compiled
    assert [w for w in edge.warnings if "Spark cannot pivot on a NULL array or struct" in w]
    assert [name for name, _ in edge.columns(compiled)] == ["grp", *NESTED_COLUMNS[column]]
    got = {
        row.grp: {k: v for k, v in row.asDict().items() if k != "grp"} for row in edge.sql(compiled)
    }
    expected = {
        grp: {name: cells.get(name) for name in NESTED_COLUMNS[column]}
        for grp, cells in NESTED_PIVOTS[column].items()
    }
    assert got == expected


def test_discovered_structs_equal_sparks_own_pivot(edge: DbtProject, nested: str) -> None:
    """The same table as Spark's PIVOT over the struct values written by hand."""
    compiled = edge.compile_inline("{{ pivot('" + nested + "', 'st', 'sum(v)', group_by='grp') }}")
    native = (
        f"select * from (select grp, st, v from {nested}) pivot (sum(v) for st in ("
        "named_struct('a', cast(null as int), 'b', cast(null as string)), "
        "named_struct('a', 1, 'b', 'x'), named_struct('a', 2, 'b', 'y\\'q')))"
    )
    assert [name for name, _ in edge.columns(compiled)] == [
        name for name, _ in edge.columns(native)
    ]
    assert sorted(map(tuple, edge.sql(compiled))) == sorted(map(tuple, edge.sql(native)))


@pytest.mark.parametrize(
    ("call", "given"),
    [
        ("pivot(t, 'tags', 'count(*)', group_by='grp')", "tags (map<string,int>)"),
        ("pivot(t, 'blobs', 'count(*)', group_by='grp')", "blobs (array<binary>)"),
        ("pivot_values(t, 'arr')", "arr (array<int>)"),
    ],
)
def test_discovery_refuses_values_it_cannot_write(edge: DbtProject, call: str, given: str) -> None:
    table = edge.table("unwritable")
    edge.sql(
        f"create table if not exists {table} using parquet as select 'g' as grp, "
        "map('a', 1) as tags, array(binary('x')) as blobs, array(1) as arr"
    )
    message = edge.compile_error("{% set t = '" + table + "' %}{{ " + call + " }}")
    macro = call.split("(")[0]
    assert f"spark_query_catalog.{macro}: argument `pivot_column` must be" in message
    assert given in message


def test_a_tuple_pivot_with_an_array_member(edge: DbtProject, nested: str) -> None:
    """(grp, arr) tuples, one grand-total row: a column per tuple, named as
    Spark names tuple values (the parts joined by `_`); the tuple with a
    NULL array is left out."""
    compiled = edge.compile_inline(
        "{{ pivot('" + nested + "', ['grp', 'arr'], 'sum(v)', group_by=[]) }}"
    )
    [row] = edge.sql(compiled)
    assert row.asDict() == {
        "g1_[1, 1]": 10, "g1_[2, 2]": 20, "g1_[3, null]": 1, "g2_[]": 2, "g2_[1, 1]": 5,
    }  # fmt: skip
