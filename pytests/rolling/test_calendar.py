"""rolling_calendar: one row per key per calendar step, days without events
included, each aggregate over the events of the steps around it. Checked
against DuckDB on the same events (its own date_trunc, generate_series and a
join of each step to its events: no step numbers, no windows), on random
keys with NULLs, events with NULL times, ties, frames wider than a key's
span and running frames; the fills against a hand-worked table."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqc.testing import lint
from sqc.testing.dbt_harness import DbtProject, values_sql

VIEW = "calendar_under_test"
COLUMNS = [("app", "string"), ("event_at", "timestamp"), ("user_id", "int"), ("v", "decimal(8,2)")]
AGGREGATES = {
    "n": "count(*)",
    "users": "count(distinct user_id)",
    "total": "sum(v)",
    "top": "max(v)",
}
BASE = dt.datetime(2024, 2, 26, 0, 0)  # a Monday, a leap month
# How far apart random events lie, in hours, per step: a few dozen steps each.
SPANS = {"hour": 60, "day": 24 * 30, "week": 24 * 7 * 12, "month": 24 * 30 * 14}
# (preceding, following) in steps: the step alone, a week, both sides, a
# running total, wider than any key's span (linear for sums and for the
# distinct count under method='auto').
FRAMES = [(0, 0), (6, 0), (2, 1), ("unbounded", 0), (40, 0)]

events_strategy = st.lists(
    st.tuples(
        st.sampled_from(["x", "y", None]),
        st.one_of(st.none(), st.floats(min_value=0, max_value=1)),  # where in the span
        st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
        st.one_of(st.none(), st.integers(min_value=-500, max_value=500)),
    ),
    max_size=30,
)


@pytest.fixture(scope="module")
def calendar_view(project: DbtProject) -> Iterator[DbtProject]:
    _load(project, [], COLUMNS)
    yield project
    project.sql(f"drop view if exists {VIEW}")


def _load(project: DbtProject, rows: list[tuple[Any, ...]], columns: list[tuple[str, str]]) -> None:
    project.sql(f"create or replace temporary view {VIEW} as " + values_sql(rows, columns))


# Compiled calls, by (step, frame, method): every step and frame under
# method='auto', and NATIVE, in one invocation when the first is asked for.
COMPILED: dict[tuple[Any, ...], str] = {}
NATIVE = ("day", (40, 0), "native")


def _compile(project: DbtProject, step: str, frame: Any, method: str) -> str:
    if not COMPILED:
        cases = [(s, f, "auto") for s in SPANS for f in FRAMES] + [NATIVE]
        calls = [
            f"{{{{ rolling_calendar('{VIEW}', {AGGREGATES!r}, 'event_at', step='{s}', "
            f"partition_by='app', preceding={f[0]!r}, following={f[1]!r}, method='{m}') }}}}"
            for s, f, m in cases
        ]
        COMPILED.update(zip(cases, project.compile_many(calls), strict=True))
    return COMPILED[step, frame, method]


def _events(rows: list[tuple[Any, ...]], step: str) -> list[tuple[Any, ...]]:
    """Whole seconds, so that both engines read the same instant."""
    return [
        (
            app,
            None
            if where is None
            else BASE + dt.timedelta(seconds=round(where * SPANS[step] * 3600)),
            user,
            None if v is None else Decimal(v) / 4,
        )
        for app, where, user, v in rows
    ]


def _duckdb(
    events: list[tuple[Any, ...]], step: str, frame: Any
) -> dict[tuple[Any, dt.date | dt.datetime], tuple[Any, ...]]:
    """Each key's steps from its first event's to its last, and for each the
    aggregates over the events whose step lies in the frame: a join."""
    preceding, following = frame
    low = "" if preceding == "unbounded" else f" and e.s >= steps.s - interval ({preceding}) {step}"
    engine = duckdb.connect()
    engine.execute(
        "create table events (app varchar, event_at timestamp, user_id int, v decimal(8, 2))"
    )
    if events:
        engine.executemany("insert into events values (?, ?, ?, ?)", events)
    rows = engine.execute(f"""
        with e as (
            select *, date_trunc('{step}', event_at) as s from events where event_at is not null
        ),
        steps as (
            select app, unnest(generate_series(min(s), max(s), interval 1 {step})) as s
            from e
            group by app
        )
        select
            steps.app, steps.s,
            count(e.event_at), count(distinct e.user_id), sum(e.v), max(e.v)
        from steps
        left join e
            on e.app is not distinct from steps.app
            and e.s <= steps.s + interval ({following}) {step}{low}
        group by steps.app, steps.s
    """).fetchall()  # fmt: skip
    return {(app, s if step == "hour" else s.date()): tuple(rest) for app, s, *rest in rows}


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=30, deadline=None
)
@given(
    rows=events_strategy,
    step=st.sampled_from(list(SPANS)),
    frame=st.sampled_from(FRAMES),
)
def test_every_step_equals_duckdb(
    calendar_view: DbtProject,
    rows: list[tuple[Any, ...]], step: str, frame: Any,
) -> None:  # fmt: skip
    events = _events(rows, step)
    _load(calendar_view, events, COLUMNS)
    got = calendar_view.sql(_compile(calendar_view, step, frame, "auto"))
    step_column = f"date_{step}"
    assert [list(r.asDict()) for r in got[:1]] in ([], [["app", step_column, *AGGREGATES]])
    actual = {(r.app, r[step_column]): (r.n, r.users, r.total, r.top) for r in got}
    assert len(actual) == len(got), "one row per key per step"
    assert actual == _duckdb(events, step, frame)


def test_the_native_and_linear_forms_agree(calendar_view: DbtProject) -> None:
    """Frames of 41 steps: auto takes the linear sums and distinct count
    (every step holds a row of its own); native takes Spark's frames."""
    events = _events(
        [(app, i / 37, i % 5, i * 3 % 17) for i in range(38) for app in ("x", None)], "day"
    )
    _load(calendar_view, events, COLUMNS)
    auto = _compile(calendar_view, "day", (40, 0), "auto")
    native = _compile(calendar_view, *NATIVE)
    assert "collect_set" not in auto, auto
    assert re.search(
        r"sum\(v\) over \(\s+partition by app\s+order by calendar_step\s+range between 40", native
    )
    assert (
        "range between unbounded preceding and 41 preceding" in auto
    )  # the prefix before each frame
    assert "collect_set" in native
    rows = {
        method: {(r.app, r.date_day): r for r in calendar_view.sql(sql)}
        for method, sql in (("auto", auto), ("native", native))
    }
    assert rows["auto"] == rows["native"]
    assert len(rows["auto"]) == 2 * 31  # 30 days of events each, both ends included


# A hand-worked table: one key's daily readings with gaps.
FILL_COLUMNS = [("sensor", "string"), ("day", "date"), ("reading", "int")]
FILL_ROWS = [
    ("s", dt.date(2024, 3, 1), 10),
    ("s", dt.date(2024, 3, 4), 40),
    ("s", dt.date(2024, 3, 4), 2),
    ("s", dt.date(2024, 3, 5), None),
    ("s", dt.date(2024, 3, 6), 0),
    ("t", dt.date(2024, 3, 2), 7),
]


def test_fills_as_worked_by_hand(calendar_view: DbtProject) -> None:
    """Days 1 to 6 of sensor s, the sum of each day's readings: 10, -, -, 42,
    NULL (a reading of NULL), 0. 'zero' writes 0 where there is none,
    'previous' the last value before, 'linear' the line from 10 on day 1 to
    42 on day 4 (20.67 and 31.33), then from 42 to 0 over day 5 (21)."""
    _load(calendar_view, FILL_ROWS, FILL_COLUMNS)
    sql = calendar_view.compile_inline(
        f"{{{{ rolling_calendar('{VIEW}', {{'plain': 'sum(reading)', 'zero': 'sum(reading)', "
        "'previous': 'sum(reading)', 'line': 'sum(reading)', 'readings': 'count(*)'}, 'day', "
        "partition_by='sensor', fill={'zero': 'zero', 'previous': 'previous', 'line': 'linear'}) }}"
    )
    got = {(r.sensor, r.date_day.day): r for r in calendar_view.sql(sql)}
    assert sorted(got) == [("s", d) for d in range(1, 7)] + [("t", 2)]
    s = [got["s", d] for d in range(1, 7)]
    assert [r.plain for r in s] == [10, None, None, 42, None, 0]
    assert [r.zero for r in s] == [10, 0, 0, 42, 0, 0]
    assert [r.previous for r in s] == [10, 10, 10, 42, 42, 0]
    assert [None if r.line is None else round(r.line, 2) for r in s] == [
        10,
        20.67,
        31.33,
        42,
        21,
        0,
    ]
    assert [r.readings for r in s] == [1, 0, 0, 2, 1, 1]
    assert (got["t", 2].plain, got["t", 2].line) == (7, 7)


def test_bounds_weeks_and_months(calendar_view: DbtProject) -> None:
    """Given bounds replace each key's own (a key with no event inside them
    still gets every step, and events before `start` still reach the first
    steps' frames). Weeks start on Monday: 2024-03-04 was one. Sensor s
    has 1 reading in the week of 2024-02-26 and 3 in that of 2024-03-04
    (one is NULL); t has 1 in the week of 2024-02-26."""
    _load(calendar_view, FILL_ROWS, FILL_COLUMNS)
    sql = calendar_view.compile_inline(
        f"{{{{ rolling_calendar('{VIEW}', {{'n': 'count(reading)'}}, 'day', step='week', "
        "partition_by='sensor', "
        "preceding=1, start='2024-03-04', end='2024-03-17') }}"
    )
    got = sorted((r.sensor, r.date_week.isoformat(), r.n) for r in calendar_view.sql(sql))
    assert got == [
        ("s", "2024-03-04", 4),
        ("s", "2024-03-11", 3),
        ("t", "2024-03-04", 1),
        ("t", "2024-03-11", 0),
    ]
    sql = calendar_view.compile_inline(
        f"{{{{ rolling_calendar('{VIEW}', {{'n': 'count(*)'}}, 'day', step='month', "
        "start='2024-01-15') }}"
    )
    got = sorted((r.date_month.isoformat(), r.n) for r in calendar_view.sql(sql))
    assert got == [("2024-01-01", 0), ("2024-02-01", 0), ("2024-03-01", 6)]


@pytest.mark.parametrize(
    ("call", "argument", "says"),
    [
        (
            "{'n': 'count(*)'}, 'day', step='fortnight'",
            "step",
            "one of 'hour', 'day', 'week', 'month'",
        ),
        ("{'n': 'count(*)'}, 'day', step='hour'", "at", "a timestamp column for step='hour'"),
        ("{'n': 'count(*)'}, 'sensor'", "at", "a date or timestamp column"),
        ("{'n': 'count(*)'}, 'when'", "at", "a column of the relation (sensor, day, reading)"),
        ("'count(*)', 'day'", "aggregates", "a non-empty dict"),
        ("{'n': 'count(*)'}, 'day', preceding='7 days'", "preceding", "a whole number of steps"),
        ("{'n': 'count(*)'}, 'day', following=-1", "following", "a whole number of steps"),
        (
            "{'n': 'count(*)'}, 'day', fill='interpolate'",
            "fill",
            "one of 'null', 'zero', 'previous', 'linear'",
        ),
        ("{'n': 'count(*)'}, 'day', fill={'m': 'zero'}", "fill", "(the columns: n)"),
        ("{'n': 'count(*)'}, 'day', start=20240101", "start", "an ISO date or timestamp"),
    ],
)
def test_bad_arguments_name_the_argument(
    calendar_view: DbtProject, call: str, argument: str, says: str
) -> None:
    _load(calendar_view, FILL_ROWS, FILL_COLUMNS)
    message = calendar_view.compile_error(f"{{{{ rolling_calendar('{VIEW}', {call}) }}}}")
    assert f"spark_query_catalog.rolling_calendar: argument `{argument}` must be" in message
    assert says in message


def test_output_names(calendar_view: DbtProject) -> None:
    """An output may be named like a column of the relation (the column is
    not in the output); not like a key or the step's column."""
    _load(calendar_view, FILL_ROWS, FILL_COLUMNS)
    sql = calendar_view.compile_inline(
        f"{{{{ rolling_calendar('{VIEW}', {{'reading': 'sum(reading)'}}, 'day', "
        "partition_by='sensor') }}"
    )
    got = {(r.sensor, r.date_day.day): r.reading for r in calendar_view.sql(sql)}
    assert got == {("s", 1): 10, ("s", 2): None, ("s", 3): None, ("s", 4): 42, ("s", 5): None,
                   ("s", 6): 0, ("t", 2): 7}  # fmt: skip
    for alias, key in (("date_day", "[]"), ("sensor", "'sensor'")):
        message = calendar_view.compile_error(
            f"{{{{ rolling_calendar('{VIEW}', {{'{alias}': 'count(*)'}}, 'day', "
            f"partition_by={key}) }}}}"
        )
        assert (
            f"spark_query_catalog.rolling_calendar: the output column `{alias}` is also a key"
            in message
        )


def test_the_sql_reads_as_written_by_hand(calendar_view: DbtProject) -> None:
    """sqlfluff's default rules on what rolling_calendar emits: no keys and
    given bounds, every fill, hours, weeks and months."""
    _load(calendar_view, FILL_ROWS, FILL_COLUMNS)
    calls = [
        "{'n': 'count(*)'}, 'day', start='2024-03-01', end='2024-03-31'",
        "{'a': 'sum(reading)', 'b': 'max(reading)', 'c': 'count(distinct reading)', "
        "'d': 'avg(reading)'}, 'day', partition_by='sensor', preceding=40, "
        "fill={'a': 'linear', 'b': 'previous', 'd': 'zero'}",
        "{'n': 'count(*)'}, 'day', step='week', partition_by=['sensor'], preceding='unbounded'",
        "{'n': 'count(*)'}, 'day', step='month', following=2, end='current_date()'",
    ]
    for call in calls:
        sql = calendar_view.compile_inline(f"{{{{ rolling_calendar('{VIEW}', {call}) }}}}")
        assert lint.violations(sql) == [], sql
        calendar_view.sql(sql)  # and Spark runs it
