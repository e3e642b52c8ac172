"""count(distinct ...) over ROWS frames, which Spark refuses as a window
function: the linear form of rolling_select and Spark's own frame as a set
(size(collect_set(...))), both against a pure-Python reference
(sqc.testing.reference) on random partitions with NULLs, repeats, frames
wider than the partition, frames wholly before or after the row and empty
frames."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqc.testing import reference
from sqc.testing.dbt_harness import DbtProject, values_sql

VIEW = "distinct_under_test"
COLUMNS = [("row_id", "int"), ("p", "string"), ("a", "int"), ("b", "string")]
# (preceding, following): frames on both sides of the row, after it, before
# it, wider than any partition here, of one row.
FRAMES = [(3, 0), (0, 4), (5, -2), (-1, 3), (10, 10), (40, 40), (0, 0), (2, 1)]
AGGREGATES = {"single": "count(distinct a)", "pair": "count(distinct a, b)"}

rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(["x", "y", None]),
        st.one_of(st.none(), st.integers(min_value=0, max_value=4)),
        st.one_of(st.none(), st.sampled_from(["m", "n"])),
    ),
    max_size=40,
)


@pytest.fixture(scope="module")
def distinct_view(project: DbtProject) -> Iterator[DbtProject]:
    project.sql(f"create or replace temporary view {VIEW} as " + values_sql([], COLUMNS))
    yield project
    # A temporary view is listed among any schema's tables: leave none behind.
    project.sql(f"drop view if exists {VIEW}")


def _call(frame: tuple[int, int], method: str) -> str:
    preceding, following = frame
    return (
        f"{{{{ rolling_select('{VIEW}', {AGGREGATES!r}, 'row_id', partition_by='p', "
        f"preceding={preceding}, following={following}, method='{method}') }}}}"
    )


@pytest.fixture(scope="module")
def distinct_sql(distinct_view: DbtProject) -> dict[tuple[tuple[int, int], str], str]:
    cases = [(frame, method) for frame in FRAMES for method in ("linear", "native")]
    calls = [_call(frame, method) for frame, method in cases]
    return dict(zip(cases, distinct_view.compile_many(calls), strict=True))


def test_the_forms_are_what_they_say(distinct_sql: dict[Any, str]) -> None:
    """The linear form has no set, no records and no sliding frame (every
    frame grows from the partition's start); the native one is Spark's frame
    over a set."""
    linear, native = distinct_sql[(3, 0), "linear"], distinct_sql[(3, 0), "native"]
    assert "collect_set" not in linear and "lateral view" not in linear
    frames = re.findall(r"(?:rows|range) between (\w+ \w+) and", linear)
    assert frames and set(frames) == {"unbounded preceding"}
    assert native.count("size(collect_set(") == 2
    assert "rows between 3 preceding and current row" in native


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=25)
@given(rows=rows_strategy, frame=st.sampled_from(FRAMES))
def test_distinct_counts_equal_the_reference(
    distinct_view: DbtProject, distinct_sql: dict[Any, str],
    rows: list[tuple[Any, ...]], frame: tuple[int, int],
) -> None:  # fmt: skip
    table = [(row_id, *row) for row_id, row in enumerate(rows)]
    distinct_view.sql(f"create or replace temporary view {VIEW} as " + values_sql(table, COLUMNS))
    start, end = -frame[0], frame[1]
    single = reference.frame_aggregate(
        [reference.FrameRow(r[0], r[1], r[0], r[2]) for r in table],
        "count_distinct", "rows", start, end,
    )  # fmt: skip
    pair = reference.frame_aggregate(
        [
            reference.FrameRow(r[0], r[1], r[0], None if None in r[2:] else (r[2], r[3]))
            for r in table
        ],
        "count_distinct", "rows", start, end,
    )  # fmt: skip
    expected = {row_id: (single[row_id], pair[row_id]) for row_id in single}
    for method in ("linear", "native"):
        got = distinct_view.sql(distinct_sql[frame, method])
        assert {r.row_id: (r.single, r.pair) for r in got} == expected, method
        if got:  # the relation's columns first, in its order
            assert list(got[0].asDict()) == ["row_id", "p", "a", "b", "single", "pair"]


def test_distinct_counts_are_bigints_as_count_distinct_is(
    distinct_view: DbtProject, distinct_sql: dict[Any, str]
) -> None:
    for method in ("linear", "native"):
        types = dict(distinct_view.columns(distinct_sql[(3, 0), method]))
        assert (types["single"], types["pair"]) == ("bigint", "bigint"), method


def test_mixed_with_other_aggregates(distinct_view: DbtProject) -> None:
    """A distinct count beside a linear sum and a block max, in the order given."""
    table = [(i, "x", i % 3, "m") for i in range(12)]
    distinct_view.sql(f"create or replace temporary view {VIEW} as " + values_sql(table, COLUMNS))
    sql = distinct_view.compile_inline(
        f"{{{{ rolling_select('{VIEW}', {{'total': 'sum(a)', 'kinds': 'count(distinct a)', "
        "'top': 'max(a)'}, 'row_id', partition_by='p', preceding=70, method='linear') }}"
    )
    got = distinct_view.sql(sql)
    assert list(got[0].asDict()) == ["row_id", "p", "a", "b", "total", "kinds", "top"]
    by_id = {r.row_id: r for r in got}
    assert [by_id[i].kinds for i in range(12)] == [1, 2] + [3] * 10
    assert [by_id[i].total for i in range(4)] == [0, 1, 3, 3]
    assert by_id[11].top == 2


def test_the_linear_form_shuffles_once_as_the_set_does(
    distinct_view: DbtProject, distinct_sql: dict[Any, str]
) -> None:
    """Numbering, the lag and lead over the value and the running sums all
    keep the partition's one shuffle: three sorts, no Generate, no join. (Over
    rows: Spark plans an empty view as an empty scan.)"""
    distinct_view.sql(
        f"create or replace temporary view {VIEW} as "
        + values_sql([(0, "x", 1, "m"), (1, "y", 2, None)], COLUMNS)
    )
    for method in ("linear", "native"):
        plan = distinct_view.sql(f"explain formatted {distinct_sql[(10, 10), method]}")[0][0]
        tree = plan.split("== Physical Plan ==")[1].strip().split("\n\n")[0]
        assert len(re.findall(r"\bExchange \(", tree)) == 1, (method, tree)
        assert ("Join" in tree, "Generate" in tree) == (False, False), tree


def test_linear_where_there_is_none_says_why(distinct_view: DbtProject) -> None:
    message = distinct_view.compile_error(
        f"{{{{ rolling_select('{VIEW}', {{'kinds': 'count(distinct a)'}}, 'row_id', "
        "partition_by='p', method='linear') }}"
    )
    assert "spark_query_catalog.rolling_select: argument `method`" in message
    assert "both ends bounded" in message
    message = distinct_view.compile_error(
        "{{ rolling('count(distinct a)', 'row_id', partition_by='p', preceding=5, "
        "method='linear') }}"
    )
    assert re.search(r"needs helper columns: use rolling_select", message), message


# RANGE frames: keys of every kind with ties and NULLs, ascending and
# descending; (order key, preceding, following, reference start, reference
# end) as the reference reads the offsets (along the order).
RANGE_VIEW = "range_distinct_under_test"
RANGE_COLUMNS = [
    ("row_id", "int"), ("p", "string"), ("k", "int"), ("dk", "decimal(6,2)"), ("day", "date"),
    ("at", "timestamp"), ("a", "int"), ("b", "string"),
]  # fmt: skip
DAY = dt.date(2024, 1, 28)
AT = dt.datetime(2024, 1, 28, 12, 0, 0)
RANGE_FRAMES = [
    ("k", 2, 0, -2, 0),
    ("k desc", 1, 2, -1, 2),
    ("k", 3.5, -1, -3, -1),  # a fraction over an integer key is truncated; wholly before the row
    ("k nulls last", -1, 2, 1, 2),  # wholly after the row
    ("dk", "0.75", "0.25", Decimal("-0.75"), Decimal("0.25")),
    ("dk desc", "0.5", 0, Decimal("-0.5"), Decimal(0)),
    ("day", "2 days", 0, dt.timedelta(days=-2), dt.timedelta(0)),
    ("day desc", 1, 1, dt.timedelta(days=-1), dt.timedelta(days=1)),
    ("at", "36 hours", 0, dt.timedelta(hours=-36), dt.timedelta(0)),
    ("at desc", "24 hours", "-2 hours", dt.timedelta(days=-1), dt.timedelta(hours=-2)),
]

range_rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(["x", "y"]),
        st.one_of(st.none(), st.integers(min_value=0, max_value=6)),  # the key, in steps
        st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
        st.one_of(st.none(), st.sampled_from(["m", "n"])),
    ),
    max_size=30,
)


def _range_table(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Each step of a key: 1 (int), 0.25 (decimal), a day (date), 12 hours (timestamp)."""
    return [
        (
            row_id, p,
            step, None if step is None else Decimal(step) / 4,
            None if step is None else DAY + dt.timedelta(days=step),
            None if step is None else AT + dt.timedelta(hours=12 * step),
            a, b,
        )
        for row_id, (p, step, a, b) in enumerate(rows)
    ]  # fmt: skip


@pytest.fixture(scope="module")
def range_view(project: DbtProject) -> Iterator[DbtProject]:
    project.sql(
        f"create or replace temporary view {RANGE_VIEW} as " + values_sql([], RANGE_COLUMNS)
    )
    yield project
    project.sql(f"drop view if exists {RANGE_VIEW}")


@pytest.fixture(scope="module")
def range_sql(range_view: DbtProject) -> dict[tuple[int, str], str]:
    cases = [
        (index, method) for index in range(len(RANGE_FRAMES)) for method in ("linear", "native")
    ]
    calls = []
    for index, method in cases:
        key, preceding, following, _, _ = RANGE_FRAMES[index]
        calls.append(
            f"{{{{ rolling_select('{RANGE_VIEW}', {AGGREGATES!r}, '{key}', partition_by='p', "
            f"frame='range', preceding={preceding!r}, following={following!r}, "
            f"method='{method}') }}}}"
        )
    return dict(zip(cases, range_view.compile_many(calls), strict=True))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=30)
@given(rows=range_rows_strategy, index=st.sampled_from(range(len(RANGE_FRAMES))))
def test_range_distinct_counts_equal_the_reference(
    range_view: DbtProject, range_sql: dict[Any, str], rows: list[tuple[Any, ...]], index: int
) -> None:
    """Ties in the order key share a frame; a NULL key's frame is the
    partition's NULL-key rows; frames wholly before or after the row."""
    key, _, _, start, end = RANGE_FRAMES[index]
    table = _range_table(rows)
    range_view.sql(
        f"create or replace temporary view {RANGE_VIEW} as " + values_sql(table, RANGE_COLUMNS)
    )
    column = [name for name, _ in RANGE_COLUMNS].index(key.split()[0])
    expected = {}
    for name, value in (
        ("single", lambda r: r[6]),
        ("pair", lambda r: None if None in r[6:] else r[6:]),
    ):
        counts = reference.frame_aggregate(
            [reference.FrameRow(r[0], r[1], r[column], value(r)) for r in table],
            "count_distinct", "range", start, end,
            descending=" desc" in key, nulls_first=False if "nulls last" in key else None,
        )  # fmt: skip
        expected[name] = counts
    for method in ("linear", "native"):
        got = range_view.sql(range_sql[index, method])
        assert {r.row_id: r.single for r in got} == expected["single"], (method, key)
        assert {r.row_id: r.pair for r in got} == expected["pair"], (method, key)


def test_range_linear_form_is_one_shuffle(
    range_view: DbtProject, range_sql: dict[Any, str]
) -> None:
    """The RANGE form distributes by the partition keys before its first
    window: one Exchange, as the native frame has (over rows: Spark plans an
    empty view as an empty scan)."""
    range_view.sql(
        f"create or replace temporary view {RANGE_VIEW} as "
        + values_sql(_range_table([("x", 1, 2, "m"), ("y", None, 3, None)]), RANGE_COLUMNS)
    )
    for index in (0, 8):
        for method in ("linear", "native"):
            plan = range_view.sql(f"explain {range_sql[index, method]}")[0][0]
            assert len(re.findall(r"Exchange hashpartitioning", plan)) == 1, (method, plan)
