"""Both session implementations against a pure-Python session_window reference."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sqc.testing import reference
from sqc.testing.dbt_harness import DbtProject, values_sql
from sqc.testing.loads import side_by_side

BASE = datetime(2024, 1, 1, 12, 0, 0)
GAPS = {
    "10 seconds": timedelta(seconds=10),
    "5 seconds": timedelta(seconds=5),
    "25 seconds": timedelta(seconds=25),
    "0 seconds": timedelta(0),
    "-3 seconds": timedelta(seconds=-3),
}
COLUMNS = [("event_id", "int"), ("user_id", "string"), ("event_at", "timestamp"), ("gap", "string")]
SCHEMA = ", ".join(f"{name} {kind}" for name, kind in COLUMNS)
METHODS = ["gaps_and_islands", "session_window"]

# (user, seconds after BASE or None, per-row gap or None)
one_table = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", None]),
        st.one_of(st.none(), st.integers(min_value=0, max_value=60)),
        st.one_of(st.none(), st.sampled_from(sorted(GAPS))),
    ),
    max_size=24,
)


# Up to four tables an example (about as many tables as 20 examples of one).
event_rows = st.lists(one_table, min_size=1, max_size=4).map(side_by_side)


@pytest.fixture(scope="module")
def compiled(project: DbtProject) -> dict[tuple[str, str, str], str]:
    """SQL of every (macro, gap kind, method), compiled once against a typed
    table, in one invocation."""
    project.sql(f"create table {project.table('events_under_test')} ({SCHEMA}) using parquet")
    calls = {}
    for method in METHODS:
        for gap_kind, gap in [("fixed", "10 seconds"), ("per_row", "gap")]:
            calls["sessionize", gap_kind, method] = (
                f"{{{{ sessionize('events_under_test', 'user_id', 'event_at', '{gap}', "
                f"method='{method}') }}}}"
            )
            calls["session_windows", gap_kind, method] = (
                f"{{{{ session_windows('events_under_test', 'user_id', 'event_at', '{gap}', "
                f"{{'event_count': 'count(*)'}}, method='{method}') }}}}"
            )
    return dict(zip(calls, project.compile_many(list(calls.values())), strict=True))


def _load(project: DbtProject, rows: list[tuple[Any, ...]]) -> list[reference.Event]:
    """The rows as the view the compiled SQL reads, and as reference events."""
    data = [
        (i, user, None if at is None else BASE + timedelta(seconds=at), gap)
        for i, (user, at, gap) in enumerate(rows)
    ]
    project.sql(
        "create or replace temporary view events_under_test as " + values_sql(data, COLUMNS)
    )
    return [
        reference.Event(i, user, at, None if gap is None else GAPS[gap])
        for i, user, at, gap in data
    ]


def _check(project: DbtProject, compiled: dict[Any, str], rows: list[Any], gap_kind: str) -> None:
    events = _load(project, rows)
    if gap_kind == "fixed":
        events = [reference.Event(e.event_id, e.key, e.at, timedelta(seconds=10)) for e in events]
    expected = {
        (s.event_id, s.key, s.session_start, s.session_end) for s in reference.sessionize(events)
    }
    expected_sessions: dict[tuple[Any, ...], int] = {}
    for _, key, start, end in expected:
        expected_sessions[key, start, end] = expected_sessions.get((key, start, end), 0) + 1

    outputs = {}
    for method in METHODS:
        result = project.sql(compiled["sessionize", gap_kind, method])
        got = {(r.event_id, r.user_id, r.session_start, r.session_end) for r in result}
        assert got == expected, method
        assert len(result) == len(expected), method
        outputs[method] = sorted((r.event_id, r.session_id) for r in result)

        windows = project.sql(compiled["session_windows", gap_kind, method])
        assert {
            (w.user_id, w.session_start, w.session_end): w.event_count for w in windows
        } == expected_sessions, method
        ids = {(r.user_id, r.session_start): r.session_id for r in result}
        assert {w.session_id for w in windows} == set(ids.values()), method
    # The same session ids from both methods.
    assert outputs["gaps_and_islands"] == outputs["session_window"]


# 8 random examples a gap kind of up to four tables side by side (and the
# explicit ones): each compares both session methods with the reference.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=8)
@given(rows=event_rows)
@example(rows=[("a", 0, None), ("a", 10, None), ("a", 20, None), ("a", 31, None)])
@example(rows=[("a", 0, None), ("a", 0, None), ("b", 9, None), ("b", None, None)])
@example(rows=[])
def test_fixed_gap_matches_reference(
    project: DbtProject, compiled: dict[Any, str], rows: list[Any]
) -> None:
    _check(project, compiled, rows, "fixed")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=8)
@given(rows=event_rows)
@example(
    # A long gap keeps the session open past later, shorter gaps.
    rows=[("a", 0, "25 seconds"), ("a", 10, "5 seconds"), ("a", 20, "5 seconds")]
)
@example(rows=[("a", 0, "0 seconds"), ("a", 0, "10 seconds"), ("a", 5, "-3 seconds")])
@example(rows=[("a", 0, "5 seconds"), ("a", 5, "5 seconds"), ("a", 10, None)])
def test_per_row_gap_matches_reference(
    project: DbtProject, compiled: dict[Any, str], rows: list[Any]
) -> None:
    _check(project, compiled, rows, "per_row")


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("column_type", "literal", "session_type"),
    [
        ("string", "'2024-01-01 12:00:{:02d}'", "timestamp"),
        ("timestamp_ntz", "timestamp_ntz'2024-01-01 12:00:{:02d}'", "timestamp_ntz"),
        ("date", "date'2024-01-{:02d}'", "timestamp"),
    ],
)
def test_time_column_types(
    project: DbtProject, method: str, column_type: str, literal: str, session_type: str
) -> None:
    """Strings and dates are read as timestamps; timestamp_ntz stays ntz."""
    table = project.table(f"times_{column_type}")
    values = ", ".join(f"({i}, 'u', {literal.format(second)})" for i, second in enumerate([1, 2]))
    project.sql(
        f"create table if not exists {table} using parquet as "
        f"select * from values {values} as t(event_id, user_id, event_at)"
    )
    gap = "1 day" if column_type == "date" else "5 seconds"
    sql = project.compile_inline(
        f"{{{{ sessionize('{table}', 'user_id', 'event_at', '{gap}', method='{method}') }}}}"
    )
    types = dict(project.columns(sql))
    assert types["session_start"] == session_type
    assert types["event_at"] == column_type
    rows = project.sql(sql)
    assert len({r.session_id for r in rows}) == 1
    assert len(rows) == 2


def test_sessionize_inside_a_users_cte(project: DbtProject) -> None:
    """The macro's own CTEs nest inside a model's CTE."""
    sql = project.compile_inline(
        "with raw_events as (\n"
        "    select * from values (1, 'u', timestamp'2024-01-01 00:00:00'),"
        " (2, 'u', timestamp'2024-01-01 00:00:30')"
        " as t(event_id, user_id, event_at)\n"
        "),\n\n"
        "sessions as (\n"
        "{{ sessionize('raw_events', 'user_id', 'event_at', '1 minute') }}\n"
        ")\n\n"
        "select count(distinct session_id) as session_count from sessions"
    )
    assert project.sql(sql)[0].session_count == 1


def test_no_partition_warns_at_compile_time(project: DbtProject) -> None:
    project.compile_inline("{{ sessionize('events_under_test', [], 'event_at', '10 seconds') }}")
    assert any("no `partition_by`" in w for w in project.warnings)
