"""rolling and rolling_select on Spark: every frame form Spark accepts gives
Spark's semantics, and the linear forms give exactly the native frame's
result, both checked against a pure-Python reference (sqc.testing.reference)."""

from __future__ import annotations

import datetime as dt
import math
import random
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqc.testing import lint, reference
from sqc.testing.dbt_harness import DbtProject, values_sql
from sqc.testing.loads import side_by_side

VIEW = "rolling_under_test"
COLUMNS = [
    ("row_id", "int"), ("p", "string"), ("k", "int"), ("dk", "decimal(10,2)"), ("xk", "double"),
    ("day", "date"), ("at", "timestamp"), ("local_at", "timestamp_ntz"), ("v", "int"),
    ("dv", "decimal(10,2)"),
]  # fmt: skip
DAY = dt.date(2024, 1, 28)
AT = dt.datetime(2024, 1, 28, 12, 0, 0)

# (order key, preceding, following, reference start, reference end): the
# offset forms Spark takes, and what they mean as key offsets.
SEMANTICS = [
    ("k", 2, 0, -2, 0),
    ("k", 1.5, 2.5, -1, 2),  # Spark truncates a fraction over an integer key
    ("k", -1, 3, 1, 3),  # a negative offset is on the other side of the row
    ("k", 4, -2, -4, -2),  # a frame wholly before the row: empty for some rows
    ("dk", 1.25, 0.5, Decimal("-1.25"), Decimal("0.5")),
    ("dk", "0.5", "-0.25", Decimal("-0.5"), Decimal("-0.25")),
    ("xk", 1.5, 0, -1.5, 0),
    ("day", 2, 1, dt.timedelta(days=-2), dt.timedelta(days=1)),
    ("day", "1 week", 0, dt.timedelta(days=-7), dt.timedelta(0)),
    ("day", "1 month", 0, ("months", -1), dt.timedelta(0)),
    ("day", "interval '1-1' year to month", 0, ("months", -13), dt.timedelta(0)),
    ("day", "interval '3' day", "interval '2' day", dt.timedelta(days=-3), dt.timedelta(days=2)),
    ("at", "36 hours", 0, dt.timedelta(hours=-36), dt.timedelta(0)),
    ("at", 0, "interval '1' month", dt.timedelta(0), ("months", 1)),
    ("at", "30 hours", "-2 hours", dt.timedelta(hours=-30), dt.timedelta(hours=-2)),
    ("local_at", "1 year", 0, ("months", -12), dt.timedelta(0)),
    ("local_at", "2 days", "1 day", dt.timedelta(days=-2), dt.timedelta(days=1)),
]  # fmt: skip


def _rows(draw_keys: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Table rows from (partition, key step or None, value or None)."""
    rows = []
    for row_id, (p, step, value) in enumerate(draw_keys):
        rows.append((
            row_id, p, step,
            None if step is None else Decimal(step) / 4,
            None if step is None else step / 2,
            None if step is None else DAY + dt.timedelta(days=step * 9),
            None if step is None else AT + dt.timedelta(hours=step * 7),
            None if step is None else AT + dt.timedelta(days=step * 11),
            value,
            None if value is None else (Decimal(value) / 4).quantize(Decimal("0.01")),
        ))  # fmt: skip
    return rows


def _reference_key(row: tuple[Any, ...], key: str) -> Any:
    return row[[name for name, _ in COLUMNS].index(key)]


@pytest.fixture(scope="module")
def rolling_view(project: DbtProject) -> DbtProject:
    project.sql(f"create or replace temporary view {VIEW} as " + values_sql([], COLUMNS))
    return project


def _load(project: DbtProject, rows: list[tuple[Any, ...]]) -> None:
    project.sql(f"create or replace temporary view {VIEW} as " + values_sql(rows, COLUMNS))


keys_strategy = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", None]),
        st.one_of(st.none(), st.integers(min_value=-6, max_value=12)),
        st.one_of(st.none(), st.integers(min_value=-40, max_value=40)),
    ),
    max_size=30,
)
# Up to four such tables side by side in one query (about as many tables
# as two and a half times the examples of one).
tables_strategy = st.lists(keys_strategy, min_size=1, max_size=4).map(side_by_side)


@pytest.fixture(scope="module")
def semantics_sql(rolling_view: DbtProject) -> str:
    """One query with a native frame column per SEMANTICS entry (sum and count)."""
    columns = []
    for index, (key, preceding, following, _, _) in enumerate(SEMANTICS):
        for aggregate in ("sum(v)", "count(*)"):
            call = (
                f"rolling('{aggregate}', '{key}', partition_by='p', frame='range', "
                f"preceding={preceding!r}, following={following!r}, relation='{VIEW}', "
                "method='native')"
            )
            columns.append("{{ " + call + " }} as c" + str(index) + "_" + aggregate[:3])
    return rolling_view.compile_inline(f"select row_id, {', '.join(columns)} from {VIEW}")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=8)
@given(keys=tables_strategy)
def test_range_frames_have_sparks_semantics(
    rolling_view: DbtProject, semantics_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """Fractional and negative numeric offsets over integer, decimal and double
    keys, day-time and year-month intervals (strings and literals) over date,
    timestamp and timestamp_ntz keys, following intervals, and frames that
    are empty for some rows: each row's sum and count equal the reference."""
    rows = _rows(keys)
    _load(rolling_view, rows)
    got = {r.row_id: r.asDict() for r in rolling_view.sql(semantics_sql)}
    for index, (key, _, _, start, end) in enumerate(SEMANTICS):
        frame_rows = [reference.FrameRow(r[0], r[1], _reference_key(r, key), r[8]) for r in rows]
        for aggregate, name in (("sum", "sum"), ("count_rows", "cou")):
            expected = reference.frame_aggregate(frame_rows, aggregate, "range", start, end)
            actual = {row_id: values[f"c{index}_{name}"] for row_id, values in got.items()}
            assert actual == expected, (SEMANTICS[index], aggregate)


# Linear forms: (aggregate, order key, frame, preceding, following)
LINEAR = [
    ("sum(v)", "row_id", "rows", 3, 0), ("count(v)", "row_id", "rows", 0, 4),
    ("count(*)", "row_id", "rows", 5, -2), ("avg(v)", "row_id", "rows", -1, 3),
    ("sum(dv)", "row_id", "rows", 10, 10), ("avg(dv)", "row_id", "rows", 2, "unbounded"),
    ("sum(v)", "k", "range", 3, 0), ("count(v)", "k", "range", 1.5, 2.5),
    # avg of int or smallint: Spark's sum of doubles, exact up to 2^22 values
    ("avg(cast(v as smallint))", "k desc", "range", 2, 1), ("avg(v)", "k", "range", 2, 1),
    ("avg(v)", "at", "range", "1 day", 0),
    ("sum(dv)", "k nulls last", "range", 4, -2),
    ("avg(dv)", "dk", "range", 1.25, 0.5), ("count(*)", "day", "range", "2 weeks", "3 days"),
    ("sum(v)", "at", "range", "36 hours", 0), ("sum(dv)", "at desc", "range", "1 day", "1 day"),
    ("count(v)", "k", "range", 2, "unbounded"),
]  # fmt: skip


@pytest.fixture(scope="module")
def linear_sql(rolling_view: DbtProject) -> str:
    columns = []
    for index, (aggregate, key, frame, preceding, following) in enumerate(LINEAR):
        for method in ("native", "linear"):
            call = (
                f"rolling('{aggregate}', '{key}', partition_by='p', frame='{frame}', "
                f"preceding={preceding!r}, following={following!r}, relation='{VIEW}', "
                f"method='{method}')"
            )
            columns.append("{{ " + call + " }} as c" + str(index) + "_" + method)
    return rolling_view.compile_inline(f"select row_id, {', '.join(columns)} from {VIEW}")


def _offsets(key: str, preceding: Any, following: Any) -> tuple[Any, Any]:
    """A frame's bounds as key offsets for the reference."""

    def one(value: Any, sign: int) -> Any:
        if value == "unbounded":
            return None
        if isinstance(value, str):
            number, unit = value.split()
            return sign * dt.timedelta(**{unit.rstrip("s") + "s": int(number)})
        if key in ("day", "at", "local_at"):
            return sign * dt.timedelta(days=value)  # a number over a date counts days
        if key.startswith("k") and not isinstance(value, int):
            return sign * int(value)
        return sign * (Decimal(str(value)) if key.startswith("dk") else value)

    return one(preceding, -1), one(following, 1)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=10)
@given(keys=tables_strategy)
def test_linear_forms_equal_the_native_frame_and_the_reference(
    rolling_view: DbtProject, linear_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """Random partitions, NULL keys and values, ties in RANGE keys (peers),
    frames wider than the partition: the linear form equals the native frame
    exactly (type included) and the reference. ROWS frames order by a
    unique key, where Spark's own result is fully determined."""
    rows = _rows(keys)
    _load(rolling_view, rows)
    result = rolling_view.sql(linear_sql)
    types = dict(rolling_view.columns(linear_sql))
    got = {r.row_id: r.asDict() for r in result}
    for index, (aggregate, key, frame, preceding, following) in enumerate(LINEAR):
        assert types[f"c{index}_linear"] == types[f"c{index}_native"], LINEAR[index]
        native = {row_id: values[f"c{index}_native"] for row_id, values in got.items()}
        linear = {row_id: values[f"c{index}_linear"] for row_id, values in got.items()}
        assert linear == native, LINEAR[index]
        name, argument = re.match(r"(\w+)\((.*)\)", aggregate).groups()
        column = "v" if argument in ("v", "*") or argument.startswith("cast(v ") else argument
        order = key.split()[0]
        frame_rows = [
            reference.FrameRow(r[0], r[1], _reference_key(r, order), _reference_key(r, column))
            for r in rows
        ]
        start, end = _offsets(order, preceding, following)
        expected = reference.frame_aggregate(
            frame_rows, "count_rows" if argument == "*" else name, frame, start, end,
            descending=" desc" in key, nulls_first=False if "nulls last" in key else None,
            decimal_scale=2 if argument == "dv" else None,
        )  # fmt: skip
        if name == "avg" and column == "v":
            assert linear == pytest.approx(expected), LINEAR[index]
        else:
            assert linear == expected, LINEAR[index]


# GROUPS frames: (order key, preceding, following, method). Keys tie often
# (about 19 values a partition) and may be NULL.
GROUPS = [
    ("k", 2, 0, "auto"), ("k", 1, 1, "linear"), ("k desc", 0, 2, "auto"),
    ("k", "unbounded", 0, "auto"), ("k nulls last", 3, -1, "linear"), ("k", -1, 2, "auto"),
    ("k", 1, "unbounded", "auto"),
]  # fmt: skip
GROUP_AGGREGATES = {
    "s": "sum(v)", "n": "count(*)", "m": "max(v)", "d": "count(distinct v)", "a": "avg(dv)",
}  # fmt: skip
LINEAR_ALIASES = ("s", "n", "a")  # method='linear': those with a linear form


def _group_aggregates(method: str) -> dict[str, str]:
    return {
        alias: sql for alias, sql in GROUP_AGGREGATES.items()
        if method != "linear" or alias in LINEAR_ALIASES
    }  # fmt: skip


def _frame_arguments(
    frame: str, key: str | None, preceding: Any, following: Any, exclude: str | None = None
) -> str:
    """rolling_select's arguments after `aggregates` for one frame over VIEW,
    partitioned by p: the order key (none: []), the frame's bounds and its
    exclusion."""
    return (
        f"{[key] if key else []!r}, partition_by='p', frame='{frame}', "
        f"preceding={preceding!r}, following={following!r}"
        + (f", exclude='{exclude}'" if exclude else "")
    )


def _side_by_side_sql(
    project: DbtProject, prefix: str, calls: list[tuple[dict[str, str], str]]
) -> str:
    """One query: rolling_select over VIEW with each call's aggregates (named
    <prefix><index>_<alias>) and its other arguments, joined by row_id."""
    ctes, columns = [], []
    for index, (aggregates, arguments) in enumerate(calls):
        named = {f"{prefix}{index}_{alias}": sql for alias, sql in aggregates.items()}
        call = f"rolling_select('{VIEW}', {named!r}, {arguments})"
        ctes.append(f"{prefix}{index} as ({{{{ spark_query_catalog.{call} }}}})")
        columns += [f"{prefix}{index}.{name}" for name in named]
    joins = " ".join(f"join {prefix}{i} using (row_id)" for i in range(1, len(calls)))
    select = f"select {prefix}0.row_id, {', '.join(columns)} from {prefix}0 {joins}"
    return project.compile_inline(f"with {', '.join(ctes)} {select}")


@pytest.fixture(scope="module")
def groups_sql(rolling_view: DbtProject) -> str:
    """One query: each GROUPS frame's rolling_select, joined by row_id."""
    return _side_by_side_sql(rolling_view, "g", [
        (_group_aggregates(method),
         _frame_arguments("groups", key, preceding, following) + f", method='{method}'")
        for key, preceding, following, method in GROUPS
    ])  # fmt: skip


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=10)
@given(keys=tables_strategy)
def test_groups_frames_count_peer_groups(
    rolling_view: DbtProject, groups_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """frame='groups' (SQL:2011, which Spark 4.3 lacks): offsets count groups
    of peers (equal keys; NULL keys are peers too), ascending, descending and
    NULLs last, frames wholly before or after the row's group and unbounded
    ends, native and linear: each row's sum, count, max, distinct count and
    avg equal the reference's GROUPS frame."""
    rows = _rows(keys)
    _load(rolling_view, rows)
    got = {r.row_id: r.asDict() for r in rolling_view.sql(groups_sql)}
    assert sorted(got) == [r[0] for r in rows]
    for index, (key, preceding, following, method) in enumerate(GROUPS):
        start = None if preceding == "unbounded" else -preceding
        end = None if following == "unbounded" else following
        for alias, aggregate in _group_aggregates(method).items():
            name, argument = re.match(r"(\w+)\((?:distinct )?(.*)\)", aggregate).groups()
            column = "v" if argument == "*" else argument
            function = (
                "count_distinct" if "distinct" in aggregate
                else "count_rows" if argument == "*"
                else name
            )  # fmt: skip
            frame_rows = [
                reference.FrameRow(r[0], r[1], r[2], _reference_key(r, column)) for r in rows
            ]
            expected = reference.frame_aggregate(
                frame_rows, function, "groups", start, end, descending=" desc" in key,
                nulls_first=False if "nulls last" in key else None,
                decimal_scale=2 if column == "dv" else None,
            )  # fmt: skip
            actual = {row_id: values[f"g{index}_{alias}"] for row_id, values in got.items()}
            assert actual == expected, (GROUPS[index], aggregate)


# Frames Spark refuses, as SQL defines them: (frame, order key or none,
# preceding, following). GROUPS frames; frames that start after they end
# (empty, but for a NULL key's peers in RANGE); and windows with no order
# key, where every row is a peer of every other.
GRAMMAR = [
    ("groups", "k", 2, 0), ("groups", "k desc", 0, 2), ("groups", "k nulls last", 3, -1),
    ("groups", "k", 1, "unbounded"), ("rows", "row_id", 1, -2), ("range", "k", 1, -3),
    ("groups", "k desc", 2, -4), ("range", None, "unbounded", 0), ("groups", None, 0, 0),
    ("range", None, 0, "unbounded"),
]  # fmt: skip
GRAMMAR_AGGREGATES = {
    "s": "sum(v)", "n": "count(*)", "c": "count(v)", "lo": "min(v)", "hi": "max(v)",
    "d": "count(distinct v)", "a": "avg(dv)",
}  # fmt: skip


@pytest.fixture(scope="module")
def grammar_sql(rolling_view: DbtProject) -> str:
    """One query: each GRAMMAR frame's rolling_select, joined by row_id."""
    return _side_by_side_sql(rolling_view, "f", [
        (GRAMMAR_AGGREGATES, _frame_arguments(*case)) for case in GRAMMAR
    ])  # fmt: skip


def _duckdb_bound(value: Any, side: str) -> str:
    if value == "unbounded":
        return f"unbounded {side}"
    if isinstance(value, str):  # a duration
        return f"interval '{value}' {side}"
    if value == 0:
        return "current row"
    other = "following" if side == "preceding" else "preceding"
    return f"{value} {side}" if value > 0 else f"{-value} {other}"


def _duckdb_sql(
    frame: str, key: str | None, preceding: Any, following: Any,
    aggregates: dict[str, str] = GRAMMAR_AGGREGATES, exclude: str = "no others",
) -> str:  # fmt: skip
    """The same windows in DuckDB, with Spark's NULL order made explicit
    (NULLs first ascending, last descending; DuckDB puts them last)."""
    order = ""
    if key:
        nulls = "" if "nulls" in key else " nulls last" if key.endswith("desc") else " nulls first"
        head, _, direction = key.partition(" ")
        order = f' order by "{head}" {direction}{nulls}'  # quoted: `at` is a keyword in DuckDB
    window = (
        f"over (partition by p{order} {frame} between {_duckdb_bound(preceding, 'preceding')}"
        f" and {_duckdb_bound(following, 'following')} exclude {exclude})"
    )
    columns = ", ".join(
        f"{_duckdb_call(sql)} {window} as {alias}" for alias, sql in aggregates.items()
    )
    return f"select row_id, {columns} from t"


def _duckdb_call(sql: str) -> str:
    """DuckDB's spelling of an aggregate: count(distinct a, b), which DuckDB
    lacks, as a count of the distinct pairs where neither is NULL; and
    approx_count_distinct as the exact count (which rolling_select gives:
    within any error bound; DuckDB's own is a sketch)."""
    sql = re.sub(r"approx_count_distinct\((\w+)\)", r"count(distinct \1)", sql)
    return re.sub(
        r"count\(distinct (\w+), (\w+)\)",
        r"count(distinct case when \1 is not null and \2 is not null then (\1, \2) end)",
        sql,
    )


def _duckdb_rows(rows: list[tuple[Any, ...]], queries: list[str]) -> list[list[dict[str, Any]]]:
    """Each query's rows, as dicts, in DuckDB over table t of `rows`."""
    engine = duckdb.connect()
    engine.execute(
        "create table t (row_id int, p varchar, k int, dk decimal(10, 2), xk double, day date,"
        ' "at" timestamp, v int, dv decimal(10, 2))'
    )
    if rows:  # DuckDB refuses executemany of no rows
        engine.executemany(
            "insert into t values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[8], r[9]) for r in rows],
        )
    results = []
    for query in queries:
        result = engine.execute(query)
        names = [column[0] for column in result.description]
        results.append([dict(zip(names, row, strict=True)) for row in result.fetchall()])
    return results


def _assert_like_duckdb(
    got: dict[int, dict[str, Any]], prefix: str, cases: list[Any], aggregates: dict[str, str],
    expected: list[list[dict[str, Any]]],
) -> None:  # fmt: skip
    """Spark's columns <prefix><case>_<alias> equal DuckDB's rows; averages
    (aliases starting with a) to 1e-6: Spark rounds an avg of decimals to 6
    places, DuckDB gives a double."""
    for index, rows in enumerate(expected):
        assert len(rows) == len(got), cases[index]  # a row each, as Spark's
        for row in rows:
            for alias in aggregates:
                actual = got[row["row_id"]][f"{prefix}{index}_{alias}"]
                if alias.startswith("a") and actual is not None and row[alias] is not None:
                    assert float(actual) == pytest.approx(row[alias], abs=1e-6), (
                        cases[index],
                        alias,
                    )
                else:
                    assert actual == row[alias], (cases[index], alias, row["row_id"])


def _check_like_duckdb(
    project: DbtProject, sql: str, prefix: str, cases: list[tuple[Any, ...]],
    aggregates: dict[str, str], keys: list[tuple[Any, ...]],
) -> None:  # fmt: skip
    """`sql` (_side_by_side_sql of `cases`: frame, key, preceding, following
    and an exclusion or none) over the rows of `keys` equals DuckDB's
    windows on the same rows, a row each."""
    rows = _rows(keys)
    _load(project, rows)
    got = {r.row_id: r.asDict() for r in project.sql(sql)}
    assert sorted(got) == [r[0] for r in rows]
    queries = [_duckdb_sql(*case[:4], aggregates, *case[4:]) for case in cases]
    _assert_like_duckdb(got, prefix, cases, aggregates, _duckdb_rows(rows, queries))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=8)
@given(keys=tables_strategy)
def test_frames_spark_lacks_equal_duckdb(
    rolling_view: DbtProject, grammar_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """GROUPS frames, frames that start after they end and windows with no
    order key, over random partitions with NULL keys, ties and NULL values:
    every aggregate equals DuckDB's window on the same rows (avg of
    decimals: Spark rounds it to 6 places, DuckDB gives a double, so to 1e-6)."""
    _check_like_duckdb(rolling_view, grammar_sql, "f", GRAMMAR, GRAMMAR_AGGREGATES, keys)


# Frame exclusions (SQL:2011, which Spark lacks): (frame, order key or
# none, preceding, following, exclude). Frames around the row, after it
# (nothing to exclude, but for a NULL key's peers in RANGE), running, with
# no order key (every row a peer), descending and NULLs last; RANGE over
# decimal, date and timestamp keys (min and max step from the row by the
# key's smallest step).
EXCLUDES = [
    ("range", "k", 2, 0, "group"), ("range", "k", 2, 0, "ties"),
    ("range", "k", 1, 1, "current row"),
    ("range", "k desc", 1, 2, "group"), ("range", "k nulls last", 3, -1, "ties"),
    ("range", "k", "unbounded", 0, "ties"), ("range", None, "unbounded", 0, "current row"),
    ("range", "k desc", 0, "unbounded", "current row"), ("range", "k", 0, 0, "current row"),
    ("range", "dk", 0.5, 0.25, "group"), ("range", "day", "18 days", 0, "current row"),
    ("range", "at", "14 hours", "7 hours", "ties"), ("range", "at desc", "unbounded", 0, "group"),
    ("groups", "k", 1, 1, "ties"), ("groups", "k desc", 2, 0, "group"),
    ("groups", "k", 0, "unbounded", "current row"), ("groups", "k", -1, 2, "group"),
    ("rows", "row_id", 2, 2, "current row"), ("rows", "row_id", 3, -1, "current row"),
    ("rows", "row_id", 0, 0, "current row"), ("rows", "row_id", "unbounded", 1, "current row"),
    ("rows", "row_id", 40, 0, "current row"), ("groups", "k", 40, 2, "ties"),
]  # fmt: skip
EXCLUDE_AGGREGATES = {
    "s": "sum(v)",
    "n": "count(*)",
    "c": "count(v)",
    "a": "avg(dv)",
    "ai": "avg(v)",
    "lo": "min(v)",
    "hi": "max(dv)",
    "d": "count(distinct v)",
    "dk": "count(distinct k)",
    "dd": "count(distinct v, dk)",
}


@pytest.fixture(scope="module")
def exclude_sql(rolling_view: DbtProject) -> str:
    """One query: each EXCLUDES case's rolling_select, joined by row_id."""
    return _side_by_side_sql(rolling_view, "x", [
        (EXCLUDE_AGGREGATES, _frame_arguments(*case))
        for case in EXCLUDES
    ])  # fmt: skip


# Its query (23 frames of 10 aggregates) costs about 15 s however few its
# rows: fewer examples of more tables each.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=3)
@given(keys=st.lists(keys_strategy, min_size=4, max_size=8).map(side_by_side))
def test_exclusions_equal_duckdb(
    rolling_view: DbtProject, exclude_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """EXCLUDE CURRENT ROW, GROUP and TIES over RANGE, GROUPS and ROWS
    frames, over random partitions with NULL keys, ties and NULL values:
    sum, count, avg, min, max and distinct counts equal DuckDB's windows with the same exclusion on
    the same rows (avg of decimals to 1e-6: Spark rounds it to 6 places,
    DuckDB gives a double)."""
    _check_like_duckdb(rolling_view, exclude_sql, "x", EXCLUDES, EXCLUDE_AGGREGATES, keys)


# Floating-point sums and averages with an exclusion add up the frame's
# parts (Spark's frames before and after the row's peers, the peers less the
# row); approx_count_distinct is the exact distinct count. Every kind of
# frame and exclusion, NULL keys included, and unbounded following ends
# (written in the reverse order); the values are halves, whose sums are
# exact in any order.
FLOAT_EXCLUDES = [
    ("range", "k", 2, 1, "current row"), ("range", "k desc", 1, 2, "group"),
    ("range", "k nulls last", 3, -1, "ties"), ("range", "k", "unbounded", 0, "ties"),
    ("range", None, "unbounded", 0, "current row"), ("range", "day", "18 days", 0, "current row"),
    ("range", "at desc", "unbounded", 0, "group"), ("groups", "k", 1, 1, "ties"),
    ("groups", "k", 0, "unbounded", "current row"), ("rows", "row_id", 2, 2, "current row"),
    ("rows", "row_id", 3, -1, "current row"), ("range", "k nulls last", 1, "unbounded", "group"),
    ("range", "dk desc", "unbounded", "unbounded", "current row"),
]  # fmt: skip
FLOAT_AGGREGATES = {"x": "sum(xk)", "ax": "avg(xk)", "ad": "approx_count_distinct(v)"}


@pytest.fixture(scope="module")
def float_exclude_sql(rolling_view: DbtProject) -> str:
    return _side_by_side_sql(rolling_view, "y", [
        (FLOAT_AGGREGATES, _frame_arguments(*case))
        for case in FLOAT_EXCLUDES
    ])  # fmt: skip


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=2)
@given(keys=st.lists(keys_strategy, min_size=4, max_size=8).map(side_by_side))
def test_float_sums_and_approx_counts_with_exclusions_equal_duckdb(
    rolling_view: DbtProject, float_exclude_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """sum and avg of a double and approx_count_distinct, with EXCLUDE
    CURRENT ROW, GROUP and TIES over RANGE, GROUPS and ROWS frames, equal
    DuckDB's windows (its approx_count_distinct as count(distinct))."""
    _check_like_duckdb(rolling_view, float_exclude_sql, "y", FLOAT_EXCLUDES, FLOAT_AGGREGATES, keys)


# 'group' and 'ties' over ROWS frames, whose edges cut through peer groups:
# tied keys (k) and unique ones (row_id, where 'group' is the row alone).
ROWS_EXCLUDES = [
    ("rows", "k", 2, 1, "group"), ("rows", "k", 2, 1, "ties"), ("rows", "k desc", 3, -1, "ties"),
    ("rows", "k nulls last", "unbounded", 0, "group"), ("rows", "k", 1, "unbounded", "ties"),
    ("rows", "k", -1, 3, "group"), ("rows", "k", 0, 0, "ties"), ("rows", "k", 40, 40, "group"),
    ("rows", "row_id", 2, 2, "group"), ("rows", "row_id", 1, 1, "ties"),
]  # fmt: skip
ROWS_EXCLUDE_AGGREGATES = {
    "s": "sum(v)", "n": "count(*)", "c": "count(v)", "ai": "avg(v)", "lo": "min(v)",
    "hi": "max(dv)", "d": "count(distinct v)", "dd": "count(distinct v, dk)", "x": "sum(xk)",
    "ax": "avg(xk)", "ad": "approx_count_distinct(v)",
}  # fmt: skip
# Only aggregates that subtract: a call of these takes the peers from running
# totals in one window (_sqc_rolling_exclude_prefix.sql), not the numbered rows.
ROWS_EXCLUDE_SUMS = {
    "s": "sum(v)", "n": "count(*)", "c": "count(v)", "ai": "avg(v)", "sd": "sum(dv)",
}  # fmt: skip


@pytest.fixture(scope="module")
def rows_exclude_sql(rolling_view: DbtProject) -> dict[str, str]:
    """Each aggregate set's query over every case of ROWS_EXCLUDES."""
    return {
        prefix: _side_by_side_sql(rolling_view, prefix, [
            (aggregates, _frame_arguments(*case)) for case in ROWS_EXCLUDES
        ])
        for prefix, aggregates in [("r", ROWS_EXCLUDE_AGGREGATES), ("s", ROWS_EXCLUDE_SUMS)]
    }  # fmt: skip


def _peer_value(step: int | None) -> int | None:
    """A row's value as a function of its key, so that peers are alike."""
    if step is None:
        return 5
    return None if step % 4 == 3 else step * 7 % 13 - 6


def _outputs(row: dict[str, Any], prefix: str, aliases: dict[str, str]) -> tuple[Any, ...]:
    """A row's aggregates, numbers rounded to 9 places (an avg of ints is a
    double in both engines, perhaps a last bit apart)."""
    return tuple(
        round(float(row[f"{prefix}{alias}"]), 9) if row[f"{prefix}{alias}"] is not None else None
        for alias in aliases
    )


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=3)
@given(keys=st.lists(keys_strategy, min_size=3, max_size=6).map(side_by_side))
def test_rows_frames_exclude_groups_and_ties_like_duckdb(
    rolling_view: DbtProject, rows_exclude_sql: dict[str, str], keys: list[tuple[Any, ...]]
) -> None:
    """EXCLUDE GROUP and TIES over ROWS frames equal DuckDB's. Peers stand in
    no set order in either engine, so a row's frame is the one of its
    position among its peers there: each value is a function of the key, and
    each frame's results, taken with the row's partition and key, are the
    same multiset in both engines (with unique keys, row for row)."""
    rows = _rows([(p, step, _peer_value(step)) for p, step, _ in keys])
    _load(rolling_view, rows)
    for prefix, aggregates in [("r", ROWS_EXCLUDE_AGGREGATES), ("s", ROWS_EXCLUDE_SUMS)]:
        got = {r.row_id: r.asDict() for r in rolling_view.sql(rows_exclude_sql[prefix])}
        queries = [_duckdb_sql(*case[:4], aggregates, case[4]) for case in ROWS_EXCLUDES]
        for index, (case, expected) in enumerate(
            zip(ROWS_EXCLUDES, _duckdb_rows(rows, queries), strict=True)
        ):
            key = case[1].split()[0]
            group = {r[0]: (r[1], _reference_key(r, key)) for r in rows}
            name = f"{prefix}{index}_"
            ours = ((group[i], _outputs(r, name, aggregates)) for i, r in got.items())
            theirs = ((group[r["row_id"]], _outputs(r, "", aggregates)) for r in expected)
            spark, duck = sorted(ours, key=repr), sorted(theirs, key=repr)
            assert spark == duck, (prefix, case)


def test_exclusion_keeps_the_linear_form_and_one_shuffle(rolling_view: DbtProject) -> None:
    """A leave-one-out sum over 100 rows: the frame's prefix differences less
    the row itself, one Exchange; and what is not exact is refused, naming
    the argument."""
    _load(rolling_view, _rows([("a", i % 7, i) for i in range(20)]))
    sql = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'loo': 'sum(v)'}}, 'row_id', partition_by='p', "
        "preceding=50, following=50, exclude='current row') }}"
    )
    assert "rows between 50 preceding" not in sql  # the linear form
    plan = rolling_view.sql(f"explain formatted {sql}")[0][0]
    tree = plan.split("== Physical Plan ==")[1].strip().split("\n\n")[0]
    assert len(re.findall(r"\bExchange \(", tree)) == 1, tree
    by_id = {r.row_id: r.loo for r in rolling_view.sql(sql)}
    assert by_id[0] == sum(range(1, 20)) and by_id[19] == sum(range(19))
    # EXCLUDE GROUP of sums over ROWS: the frame and the peers in it read the
    # tied rows in one order, that of one sort.
    rows_group = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'s': 'sum(v)', 'n': 'count(*)'}}, 'k', "
        "partition_by='p', preceding=50, following=2, exclude='group') }}"
    )
    plan = rolling_view.sql(f"explain formatted {rows_group}")[0][0]
    tree = plan.split("== Physical Plan ==")[1].strip().split("\n\n")[0]
    assert len(re.findall(r"\bExchange \(", tree)) == 1, tree
    assert len(re.findall(r"\bSort \(", tree)) == 1, tree
    # method='native' keeps Spark's frames: the numbered rows' and the peers'.
    native = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'s': 'sum(v)'}}, 'k', partition_by='p', preceding=50, "
        "following=2, exclude='group', method='native') }}"
    )
    assert "rolling_row" not in rows_group and "range between 50 preceding" in native
    ties = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'loo': 'avg(dv)', 'n': 'count(*)'}}, 'k', "
        "partition_by='p', frame='range', preceding=2, following=1, exclude='ties') }}"
    )
    extremes = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'hi': 'max(v)', 'lo': 'min(dv)'}}, 'k', "
        "partition_by='p', frame='groups', preceding=2, exclude='ties') }}"
    )
    distinct = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'d': 'count(distinct v, dv)'}}, 'k', "
        "partition_by='p', frame='range', preceding=2, exclude='ties') }}"
    )
    numbered = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'d': 'count(distinct v)'}}, 'k', "
        "partition_by='p', preceding=3, following=3, exclude='current row') }}"
    )
    rows_ties = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'s': 'sum(v)', 'hi': 'max(v)', 'x': 'avg(xk)', "
        "'d': 'count(distinct v, dv)'}, 'k', partition_by='p', preceding=2, following=1, "
        "exclude='ties') }}"
    )
    for emitted in (sql, rows_group, ties, extremes, distinct, numbered, rows_ties):
        assert lint.violations(emitted) == [], emitted
    for call, says in [
        (
            "{'q': 'percentile_approx(v, 0.5)'}, 'k', frame='range', preceding=1, exclude='group'",
            "'no others' for percentile_approx(v, 0.5)",
        ),
        (
            "{'hi': 'max(v)'}, 'xk', frame='range', preceding=1, exclude='group'",
            "a floating key has no smallest step",
        ),
        (
            "{'s': 'sum(xk)'}, 'xk', frame='range', preceding=1, exclude='ties'",
            "a floating key has no smallest step",
        ),
        (
            "{'s': 'sum(p)'}, 'k', frame='range', preceding=1, exclude='ties'",
            "sum and avg of numbers",
        ),
        (
            "{'s': 'sum(v)'}, 'row_id', preceding=1, exclude='others'",
            "one of 'no others', 'current row'",
        ),
    ]:
        message = rolling_view.compile_error(f"{{{{ rolling_select('{VIEW}', {call}) }}}}")
        assert "spark_query_catalog.rolling_select: argument `exclude` must be" in message
        assert says in message, message


EXTREMES = [(3, 0), (0, 4), (5, -2), (-1, 3), (10, 10), (7, 2), (0, 0), (2, 30), (40, 40)]


@pytest.fixture(scope="module")
def extremes_sql(rolling_view: DbtProject) -> dict[tuple[int, int], str]:
    calls = [
        f"{{{{ rolling_select('{VIEW}', {{'top': 'max(v)', 'bottom': 'min(dv)'}}, 'row_id', "
        f"partition_by='p', preceding={preceding}, following={following}, "
        "method='linear') }}"
        for preceding, following in EXTREMES
    ]
    return dict(zip(EXTREMES, rolling_view.compile_many(calls), strict=True))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=15)
@given(keys=tables_strategy, frame=st.sampled_from(EXTREMES))
def test_block_min_and_max_equal_the_reference(
    rolling_view: DbtProject, extremes_sql: dict[tuple[int, int], str],
    keys: list[tuple[Any, ...]], frame: tuple[int, int],
) -> None:  # fmt: skip
    """van Herk / Gil-Werman blocks give each frame's max and min, frames
    past either end of the partition and frames wholly after the row included."""
    rows = _rows(keys)
    _load(rolling_view, rows)
    got = {r.row_id: (r.top, r.bottom) for r in rolling_view.sql(extremes_sql[frame])}
    start, end = -frame[0], frame[1]
    tops = reference.frame_aggregate(
        [reference.FrameRow(r[0], r[1], r[0], r[8]) for r in rows], "max", "rows", start, end
    )
    bottoms = reference.frame_aggregate(
        [reference.FrameRow(r[0], r[1], r[0], r[9]) for r in rows], "min", "rows", start, end
    )
    assert got == {row_id: (tops[row_id], bottoms[row_id]) for row_id in tops}


def _exchanges(project: DbtProject, sql: str) -> int:
    plan = project.sql(f"explain formatted {sql}")[0][0]
    tree = plan.split("== Physical Plan ==")[1].strip().split("\n\n")[0]
    return len(re.findall(r"\bExchange \(", tree))


@pytest.fixture(scope="module")
def plan_table(rolling_view: DbtProject) -> str:
    """A parquet table with the view's columns: Spark plans a scan of it
    (a view of no rows it would fold away)."""
    table = rolling_view.table("rolling_plan")
    names = ", ".join(f"{name} {kind}" for name, kind in COLUMNS)
    rolling_view.sql(f"create table if not exists {table} ({names}) using parquet")
    return table


@pytest.mark.parametrize(
    "call",
    [
        "rolling('sum(v)', 'row_id', partition_by='p', preceding=99, relation='{table}', "
        "method='{m}')",
        "rolling('avg(dv)', 'at', partition_by='p', frame='range', preceding='1 day', "
        "relation='{table}', method='{m}')",
    ],
)
def test_the_linear_form_adds_no_shuffle(
    rolling_view: DbtProject, plan_table: str, call: str
) -> None:
    """The same partitioning and ordering as the native frame: one Exchange."""
    counts = []
    for method in ("native", "linear"):
        sql = rolling_view.compile_inline(
            "select row_id, {{ "
            + call.format(table=plan_table, m=method)
            + " }} as x from "
            + plan_table
        )
        assert ("unbounded preceding and current row" in sql) == (method == "linear")
        counts.append(_exchanges(rolling_view, sql))
    assert counts == [1, 1]


def test_block_extremes_add_no_shuffle(rolling_view: DbtProject, plan_table: str) -> None:
    sql = rolling_view.compile_inline(
        f"{{{{ rolling_select('{plan_table}', {{'top': 'max(v)'}}, 'row_id', partition_by='p', "
        "preceding=999, method='linear') }}"
    )
    assert "_from_block_start" in sql
    assert _exchanges(rolling_view, sql) == 1


def test_a_groups_frame_adds_no_shuffle(rolling_view: DbtProject, plan_table: str) -> None:
    """The peer groups are numbered over the window's own partitioning: one
    Exchange, as for the same frame in ROWS."""
    counts = []
    for frame in ("rows", "groups"):
        sql = rolling_view.compile_inline(
            f"{{{{ spark_query_catalog.rolling_select('{plan_table}', {{'s': 'sum(v)'}}, 'k', "
            f"partition_by='p', frame='{frame}', preceding=2, method='native') }}}}"
        )
        assert ("dense_rank()" in sql) == (frame == "groups")
        counts.append(_exchanges(rolling_view, sql))
    assert counts == [1, 1]


# Exact holistic aggregates over frames (issue 47, item 3): median,
# percentile_cont and percentile_disc within group, several fractions at
# once, and mode with its tie rule, as PostgreSQL and DuckDB spell them and
# Spark refuses them over a frame. Expected values come from the reference
# with the rules written out below, and on whole partitions from Spark's own
# aggregates, which it computes over a group but refuses over a frame.
HOLISTIC_AGGREGATES = {
    "med": "median(v)",
    "cont": "percentile_cont(0.3) within group (order by v)",
    "conts": "percentile_cont(array(0.25, 0.9)) within group (order by dv desc)",
    "disc": "percentile_disc(0.3) within group (order by v)",
    "discs": "percentile_disc(array(0, 0.5, 1)) within group (order by dv)",
    "discd": "percentile_disc(0.25) within group (order by v desc)",
    "mode": "mode(v)",
    "moded": "mode() within group (order by v desc)",
}
# (frame, order key, preceding, following)
HOLISTIC_FRAMES = [
    ("rows", "row_id", 3, 1), ("range", "k", 2, 0), ("groups", "k", 1, 1),
    ("range", "k desc", "unbounded", 0),
]  # fmt: skip


def _cont(fraction: Fraction, descending: bool = False):
    """Spark's percentile: (n - 1) * f into the sorted values, interpolated
    as lower + (position - low) * (higher - lower)."""

    def compute(values: list[Any]) -> Any:
        if not values:
            return None
        ordered = sorted(float(v) for v in values)
        position = float(len(ordered) - 1) * float(1 - fraction if descending else fraction)
        low, high = math.floor(position), math.ceil(position)
        if low == high:
            return ordered[low]
        return ordered[low] + (position - low) * (ordered[high] - ordered[low])

    return compute


def _disc(fraction: Fraction, descending: bool = False):
    """SQL's percentile_disc: the first value in the order whose cumulative
    share of the rows reaches the fraction."""

    def compute(values: list[Any]) -> Any:
        if not values:
            return None
        ordered = sorted(values, reverse=descending)
        return ordered[max(math.ceil(fraction * len(ordered)), 1) - 1]

    return compute


def _mode(descending: bool = False):
    """The value on the most rows; of values tied for it, the smallest (the
    largest descending), as PostgreSQL's mode() within group."""

    def compute(values: list[Any]) -> Any:
        if not values:
            return None
        most = max(values.count(v) for v in values)
        tied = [v for v in values if values.count(v) == most]
        return max(tied) if descending else min(tied)

    return compute


HOLISTIC_REFERENCES = {
    "med": ("v", _cont(Fraction(1, 2))),
    "cont": ("v", _cont(Fraction(3, 10))),
    "conts": ("dv", lambda values: None if not values else [
        _cont(Fraction(1, 4), True)(values), _cont(Fraction(9, 10), True)(values)
    ]),
    "disc": ("v", _disc(Fraction(3, 10))),
    "discs": ("dv", lambda values: None if not values else [
        _disc(Fraction(0))(values), _disc(Fraction(1, 2))(values), _disc(Fraction(1))(values)
    ]),
    "discd": ("v", _disc(Fraction(1, 4), True)),
    "mode": ("v", _mode()),
    "moded": ("v", _mode(True)),
}  # fmt: skip


@pytest.fixture(scope="module")
def holistic_sql(rolling_view: DbtProject) -> str:
    return _side_by_side_sql(rolling_view, "h", [
        (HOLISTIC_AGGREGATES, _frame_arguments(*case)) for case in HOLISTIC_FRAMES
    ])  # fmt: skip


def _close(actual: Any, expected: Any) -> bool:
    if isinstance(expected, list):
        return (
            actual is not None
            and len(actual) == len(expected)
            and all(_close(a, e) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, float) and actual is not None:
        return actual == pytest.approx(expected, rel=1e-12, abs=1e-12)
    return actual == expected


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=8)
@given(keys=tables_strategy)
def test_holistic_aggregates_equal_the_reference(
    rolling_view: DbtProject, holistic_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """Over random partitions with NULL keys, ties and NULL values, every
    spelling equals the pure-Python reference on every frame kind."""
    _check_like_the_reference(
        rolling_view, holistic_sql, "h", HOLISTIC_FRAMES, HOLISTIC_REFERENCES, keys
    )


def _check_like_the_reference(
    project: DbtProject,
    sql: str,
    prefix: str,
    cases: list[tuple[Any, ...]],
    references: dict[str, tuple[str, Any]],
    keys: list[tuple[Any, ...]],
) -> None:
    """`sql` (_side_by_side_sql's, named by `prefix`) over the rows of
    `keys` equals the pure-Python reference for each case (frame, order key,
    preceding, following and an exclusion if any) and each alias's value
    column and aggregate."""
    rows = _rows(keys)
    _load(project, rows)
    got = {r.row_id: r.asDict() for r in project.sql(sql)}
    assert sorted(got) == [r[0] for r in rows]
    for index, (frame, key, preceding, following, *exclude) in enumerate(cases):
        start = None if preceding == "unbounded" else -preceding
        column = 0 if key == "row_id" else 2
        for alias, (value_column, compute) in references.items():
            value_index = 8 if value_column == "v" else 9
            frame_rows = [reference.FrameRow(r[0], r[1], r[column], r[value_index]) for r in rows]
            expected = reference.frame_aggregate(
                frame_rows, compute, frame, start, following,
                descending=key.endswith(" desc"), exclude=exclude[0] if exclude else None,
            )  # fmt: skip
            for row_id, value in expected.items():
                actual = got[row_id][f"{prefix}{index}_{alias}"]
                assert _close(actual, value), (cases[index], alias, row_id, actual, value)


# ROWS frames to the current row, 64 rows wide and more: the percentiles'
# block form (_sqc_rolling_holistic_blocks.sql), blocks of 8, 10 and 14
# rows. mode keeps Spark's frame beside them, the sum its linear form.
WIDE_FRAMES = [("rows", "row_id", 63, 0), ("rows", "row_id", 99, 0), ("rows", "row_id", 200, 0)]
WIDE_AGGREGATES = {"s": "sum(v)", **HOLISTIC_AGGREGATES}


def test_percentiles_over_wide_rows_frames_equal_the_reference(rolling_view: DbtProject) -> None:
    """Over three partitions of 900, 500 and 40 rows (one of them the NULL
    key's), interleaved, with NULL values and many ties, each percentile's
    block form equals the pure-Python reference at every row: frames
    shorter than the partition's start, whole and cut at both ends."""
    draw = random.Random(47)
    keys: list[tuple[Any, ...]] = []
    for partition, count in [("a", 900), ("b", 500), (None, 40)]:
        keys += [(partition, None, None if draw.random() < 0.1 else draw.randint(-40, 40))
                 for _ in range(count)]  # fmt: skip
    draw.shuffle(keys)
    sql = _side_by_side_sql(rolling_view, "w", [
        (WIDE_AGGREGATES, _frame_arguments(*case)) for case in WIDE_FRAMES
    ])  # fmt: skip
    assert sql.count("rolling_cores as (") == len(WIDE_FRAMES)
    references = {**HOLISTIC_REFERENCES, "s": ("v", "sum")}
    _check_like_the_reference(rolling_view, sql, "w", WIDE_FRAMES, references, keys)


# (frame, order key, preceding, following, exclusion): a row outside its own
# frame (ROWS 3 to 1 preceding), peers inside RANGE and GROUPS frames, and
# an unbounded end. With a sum beside them in one call, before and after.
HOLISTIC_EXCLUDES = [
    ("rows", "row_id", 3, 1, "current row"), ("rows", "row_id", 3, -1, "current row"),
    ("range", "k", 2, 0, "group"), ("range", "k", 2, 1, "ties"),
    ("groups", "k", 1, 1, "current row"), ("groups", "k", 1, 0, "ties"),
    ("range", "k desc", "unbounded", 0, "current row"),
]  # fmt: skip
EXCLUDED_HOLISTIC = {"s": "sum(v)", **HOLISTIC_AGGREGATES, "n": "count(v)"}


@pytest.fixture(scope="module")
def holistic_exclude_sql(rolling_view: DbtProject) -> str:
    return _side_by_side_sql(rolling_view, "e", [
        (EXCLUDED_HOLISTIC, _frame_arguments(*case)) for case in HOLISTIC_EXCLUDES
    ])  # fmt: skip


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=4)
@given(keys=tables_strategy)
def test_holistic_aggregates_with_exclusions_equal_the_reference(
    rolling_view: DbtProject, holistic_exclude_sql: str, keys: list[tuple[Any, ...]]
) -> None:
    """median, percentile_cont, percentile_disc and mode with EXCLUDE
    CURRENT ROW, GROUP and TIES over ROWS, RANGE and GROUPS frames, beside a
    sum and a count in the same call, over random partitions with NULL
    keys, ties and NULL values: each equals the pure-Python reference with
    the same exclusion."""
    references = {**HOLISTIC_REFERENCES, "s": ("v", "sum"), "n": ("v", "count")}
    _check_like_the_reference(
        rolling_view, holistic_exclude_sql, "e", HOLISTIC_EXCLUDES, references, keys
    )


def test_whole_partitions_equal_sparks_own_aggregates(rolling_view: DbtProject) -> None:
    """Over a frame that spans the partition, percentile_disc and mode give
    what Spark's own aggregates give over the group (its percentile_disc
    follows SQL's rule; mode() within group picks the smallest of tied
    values), and the emitted SQL passes sqlfluff's rules."""
    rows = _rows([
        ("a", 1, 5), ("a", 2, 5), ("a", 3, 7), ("a", 4, 7), ("a", 5, 1), ("a", 6, None),
        ("b", 1, 3), ("b", 2, -2), ("b", 3, 9), ("b", 4, 9), ("b", 5, -2), (None, 1, 4),
    ])  # fmt: skip
    _load(rolling_view, rows)
    aggregates = {
        "disc": "percentile_disc(0.3) within group (order by v)",
        "discd": "percentile_disc(0.6) within group (order by v desc)",
        "mode": "mode() within group (order by v)",
        "moded": "mode() within group (order by v desc)",
    }
    call = "partition_by='p', frame='range', preceding='unbounded', following='unbounded'"
    sql = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {aggregates!r}, [], {call}) }}}}"
    )
    # sqlfluff does not parse mode() within group, which only the largest
    # of tied values needs: the others pass its rules.
    plain = {
        "p30": aggregates["disc"],
        "p60_desc": aggregates["discd"],
        "usual": aggregates["mode"],
        "mid": "median(v)",
        "quartiles": "percentile_cont(array(0.25, 0.75)) within group (order by dv desc)",
    }
    linted = rolling_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {plain!r}, [], {call}) }}}}"
    )
    assert lint.violations(linted) == [], (lint.violations(linted), linted)
    windowed = {(r.p, r.disc, r.discd, r.mode, r.moded) for r in rolling_view.sql(sql)}
    grouped = rolling_view.sql(f"select p, {', '.join(aggregates.values())} from {VIEW} group by p")
    assert windowed == {tuple(r) for r in grouped}
    # By hand, partition a: values 5, 5, 7, 7, 1; 5 and 7 tie for the mode.
    assert ("a", 5, 5, 5, 7) in windowed


def test_percentile_cont_is_sparks_percentile(rolling_view: DbtProject) -> None:
    """percentile_cont and median of integers and decimals read the frame's
    sorted values: each equals Spark's own percentile over the same frame
    exactly, bit for bit (descending at 1 - f); of floating-point values
    they are Spark's percentile itself."""
    draw = random.Random(47)
    _load(rolling_view, _rows([
        (draw.choice("abc"), draw.choice([None, *range(12)]), draw.choice([None, *range(-50, 50)]))
        for _ in range(600)
    ]))  # fmt: skip
    aggregates = {
        "med": "median(v)",
        "p95": "percentile_cont(0.95) within group (order by v)",
        "qs": "percentile_cont(array(0.25, 0.9)) within group (order by dv desc)",
        "fl": "median(xk)",
    }
    by_hand = {
        "med": "percentile(v, 0.5)",
        "p95": "percentile(v, 0.95)",
        "qs": "percentile(dv, array(0.75, 0.1))",
        "fl": "percentile(xk, 0.5)",
    }
    for frame, key, preceding, following, bounds in [
        ("rows", "row_id", 7, 2, "7 preceding and 2 following"),
        ("range", "k", 3, 0, "3 preceding and current row"),
        ("range", "k desc", "unbounded", 0, "unbounded preceding and current row"),
    ]:
        arguments = _frame_arguments(frame, key, preceding, following)
        sql = rolling_view.compile_inline(
            f"{{{{ rolling_select('{VIEW}', {aggregates!r}, {arguments}) }}}}"
        )
        assert sql.count("percentile(") == 1, sql  # xk's alone: a double
        window = f"over (partition by p order by {key} {frame} between {bounds})"
        columns = ", ".join(f"{call} {window} as {alias}" for alias, call in by_hand.items())
        spark = {r.row_id: r for r in rolling_view.sql(f"select row_id, {columns} from {VIEW}")}
        for row in rolling_view.sql(sql):
            for alias in aggregates:
                assert row[alias] == spark[row.row_id][alias], (key, alias, row.row_id)


@pytest.mark.parametrize(
    "aggregate, says",
    [
        ("percentile_cont(1.5) within group (order by v)", "a fraction from 0 to 1"),
        ("percentile_disc(array(0.5, x)) within group (order by v)", "a fraction from 0 to 1"),
        ("mode(v) within group (order by v)", "nothing between mode's parentheses"),
    ],
)
def test_bad_holistic_aggregates_are_compile_errors(
    rolling_view: DbtProject, aggregate: str, says: str
) -> None:
    message = rolling_view.compile_error(
        f"{{{{ rolling_select('{VIEW}', {{'x': '{aggregate}'}}, 'row_id', preceding=3) }}}}"
    )
    assert "spark_query_catalog.rolling_select: argument `aggregates` must be" in message
    assert says in message, message
