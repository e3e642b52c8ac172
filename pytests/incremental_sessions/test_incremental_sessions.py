"""incremental_sessions: loading events batch by batch gives exactly the
sessions of a full rebuild over all of them, even when a run dies halfway."""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqc.testing import reference
from sqc.testing.dbt_harness import DbtProject
from sqc.testing.loads import (
    BROADCAST_ROWS_CONFIG,
    FAULT_INJECTION_CONFIG,
    lab_project,
    load_events,
    reset_events,
    run_stopped_after,
    run_with_broadcast_rows,
    shuffled_batches,
)

BASE = datetime(2024, 1, 1, 23, 59, 0)  # sessions cross midnight: two partitions
GAP = timedelta(seconds=10)
GAPS = {"10 seconds": timedelta(seconds=10), "4 seconds": timedelta(seconds=4),
        "25 seconds": timedelta(seconds=25), "0 seconds": timedelta(0)}  # fmt: skip
COLUMNS = [
    ("event_id", "int"), ("user_id", "string"), ("event_at", "timestamp"),
    ("gap", "string"), ("loaded_at", "int"),
]  # fmt: skip
# The lab models' loaded_at expression: the column, unless a test sets this
# variable (read with env_var, as sqc.testing.loads explains).
LOADED_AT = "SPARK_QUERY_CATALOG_LAB_LOADED_AT"
MODEL = """{{{{ config(
    materialized='incremental_sessions',
    keys='user_id',
    timestamp_column='event_at',
    gap={gap!r},
    aggregates={{'event_count': 'count(*)', 'event_ids': 'array_sort(collect_list(event_id))'}},
    event_key='event_id',
    {loaded_at},
    {broadcast_rows},
    {fault_injection}
) }}}}
select event_id, user_id, event_at, gap, loaded_at from {{{{ target.schema }}}}.events
"""
MODELS = {"sessions_fixed": "10 seconds", "sessions_per_row": "gap"}
# A model downstream of `sessions_fixed`: per user and day, from the sessions
# that changed since its last run (changed_rows: every day a changed session
# spans), whole days replaced, and the days a merge emptied dropped.
DOWNSTREAM = "sessions_daily"
DOWNSTREAM_SQL = """{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    file_format='parquet',
    partition_by=['session_date'],
    pre_hook="{{ spark_query_catalog.drop_emptied_partitions(ref('sessions_fixed')) }}"
) }}
select
    user_id,
    count(*) as sessions,
    sum(event_count) as events,
    max(spark_query_catalog_changed_at) as spark_query_catalog_changed_at,
    session_date
from (
    {{ spark_query_catalog.changed_rows(ref('sessions_fixed'), groups='session_date') }}
) as sessions
group by user_id, session_date
"""
# A feature table over `sessions_fixed` (a chain, span_end): each changed
# session is a new event that replaces the stored sessions inside its span
# (the sessions a merge removed, its own old version). A ROWS frame that
# keeps its state (or not, by the environment: a run takes another path), a
# RANGE frame and a ROWS frame that reaches forward.
CHAINED = "sessions_windows"
CHAINED_STATES = "SPARK_QUERY_CATALOG_LAB_CHAINED_STATES"
CHAINED_WINDOWS = {
    "events_last_3": {"expression": "sum(event_count)", "frame": "rows", "preceding": 2},
    "sessions_30s": {"expression": "count(*)", "frame": "range", "preceding": "30 seconds"},
    "longest_around": {"expression": "max(event_count)", "frame": "rows", "preceding": 1,
                       "following": 1},
}  # fmt: skip
CHAINED_REFERENCE = {
    "events_last_3": ("sum", "rows", -2, 0),
    "sessions_30s": ("count_rows", "range", -timedelta(seconds=30), timedelta(0)),
    "longest_around": ("max", "rows", -1, 1),
}
CHAINED_SQL = f"""{{{{ config(
    materialized='incremental_windows',
    keys='user_id',
    order_by='session_start',
    span_end='session_end',
    windows={CHAINED_WINDOWS},
    event_key='session_id',
    loaded_at='sessions_changed_at',
    copies='last',
    frame_states=env_var('{CHAINED_STATES}', 'true') == 'true',
    {BROADCAST_ROWS_CONFIG}
) }}}}
select
    session_id,
    user_id,
    session_start,
    session_end,
    event_count,
    spark_query_catalog_changed_at as sessions_changed_at
from {{{{ ref('sessions_fixed') }}}}
"""
# Batch loads in all (a load is one batch into one model), per target: each
# dbt run loads a batch into both models.
SPLITS = {"session": 24, "thrift": 12}


def _model_sql(gap: str) -> str:
    return MODEL.format(
        gap=gap,
        loaded_at=f"loaded_at=env_var('{LOADED_AT}', 'loaded_at')",
        broadcast_rows=BROADCAST_ROWS_CONFIG,
        fault_injection=FAULT_INJECTION_CONFIG,
    )


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, target: str) -> Iterator[DbtProject]:
    models = {name: _model_sql(gap) for name, gap in MODELS.items()}
    models[DOWNSTREAM] = DOWNSTREAM_SQL
    models[CHAINED] = CHAINED_SQL
    yield from lab_project(
        tmp_path_factory.mktemp("incremental_lab"), models, target, "pytest_incremental_lab"
    )


# (user, second after BASE, per-row gap); duplicates are drawn later.
events_strategy = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.integers(min_value=0, max_value=120).map(lambda s: s - s % 2),  # many exact ties
        st.sampled_from(sorted(GAPS)),
    ),
    min_size=1,
    max_size=30,
)


def _reset(lab: DbtProject) -> None:
    reset_events(lab, COLUMNS, [*MODELS, DOWNSTREAM, CHAINED])


def _load(lab: DbtProject, rows: list[tuple[Any, ...]]) -> None:
    load_events(lab, rows, COLUMNS)


def _sessions(lab: DbtProject, model: str) -> Counter[tuple[Any, ...]]:
    # Arrays as JSON text: HiveServer2 sends them as text anyway.
    rows = lab.sql(
        "select user_id, session_id, session_start, session_end, event_count, "
        f"to_json(event_ids) as event_ids, session_date from {lab.table(model)}"
    )
    return Counter(
        (r.user_id, r.session_id, r.session_start, r.session_end, r.event_count,
         tuple(json.loads(r.event_ids)), r.session_date)
        for r in rows
    )  # fmt: skip


def _marks(lab: DbtProject, model: str) -> dict[tuple[Any, ...], Any]:
    """Each session (every column but the mark): its change mark."""
    rows = lab.sql(
        "select user_id, session_id, session_start, session_end, event_count, "
        "to_json(event_ids), spark_query_catalog_loaded_at, session_date, "
        f"spark_query_catalog_changed_at from {lab.table(model)}"
    )
    return {tuple(r[:-1]): r[-1] for r in rows}


def _check_marks(before: dict[tuple[Any, ...], Any], after: dict[tuple[Any, ...], Any],
                 batch: int) -> None:  # fmt: skip
    """A session a run left as it was keeps its mark; every other one (new,
    grown, merged) carries the run's, its batch's loaded_at."""
    for session, mark in after.items():
        assert mark == before.get(session, batch), (session, before.get(session), mark)


def _daily(lab: DbtProject) -> Counter[tuple[Any, ...]]:
    return Counter(tuple(r) for r in lab.sql(f"select * from {lab.table(DOWNSTREAM)}"))


def _daily_expected(marks: dict[tuple[Any, ...], Any]) -> Counter[tuple[Any, ...]]:
    """sessions_daily, computed in Python from every row of `sessions_fixed`
    (as _marks reads them)."""
    groups: dict[tuple[Any, ...], list[tuple[int, Any]]] = {}
    for (user, _, _, _, events, _, _, day), mark in marks.items():
        groups.setdefault((user, day), []).append((events, mark))
    return Counter(
        (user, len(values), sum(v[0] for v in values), max(v[1] for v in values), day)
        for (user, day), values in groups.items()
    )


def _chained(lab: DbtProject) -> dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]]:
    """Each row of the chained table by session (session_id, user, start):
    its window values and its change mark."""
    rows = lab.sql(
        f"select session_id, user_id, session_start, {', '.join(sorted(CHAINED_WINDOWS))},"
        f" spark_query_catalog_changed_at from {lab.table(CHAINED)}"
    )
    return {tuple(r[:3]): (tuple(r[3:-1]), r[-1]) for r in rows}


def _chained_expected(lab: DbtProject) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """The chained windows, computed in Python over `sessions_fixed`'s rows
    as they are now."""
    rows = lab.sql(
        f"select session_id, user_id, session_start, event_count from {lab.table('sessions_fixed')}"
    )
    sessions = sorted((tuple(r) for r in rows), key=lambda row: (row[2], row[0]))
    values = {}
    for alias, (aggregate, frame, start, end) in CHAINED_REFERENCE.items():
        frame_rows = [
            reference.FrameRow(i, user, at if frame == "range" else (at, session), count)
            for i, (session, user, at, count) in enumerate(sessions)
        ]
        values[alias] = reference.frame_aggregate(frame_rows, aggregate, frame, start, end)
    return {
        row[:3]: tuple(values[alias][i] for alias in sorted(CHAINED_WINDOWS))
        for i, row in enumerate(sessions)
    }


def _check_chained(
    lab: DbtProject,
    before: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]],
    upstream: dict[tuple[Any, ...], Any],
    batch: int,
) -> dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]]:
    """The chained table equals the Python frames over the sessions as they
    stand (a session a merge removed has no row); a row carries the run's
    mark where its window values changed or its session did, else its own."""
    chained = _chained(lab)
    assert {k: v[0] for k, v in chained.items()} == _chained_expected(lab)
    changed = {(s[1], s[0], s[2]) for s, mark in upstream.items() if mark == batch}
    for row, (values, mark) in chained.items():
        if row in before and before[row][0] == values and row not in changed:
            assert mark == before[row][1], (row, values, before[row], mark)
        else:
            assert mark == batch, (row, values, before.get(row), mark)
    return chained


def _expected(rows: list[tuple[Any, ...]], per_row: bool) -> Counter[tuple[Any, ...]]:
    """The pure-Python session_window over the events, one copy of each."""
    unique = {row[0]: row for row in rows}
    events = [
        reference.Event(i, user, at, GAPS[gap] if per_row else GAP)
        for i, user, at, gap, _ in unique.values()
    ]
    sessions: dict[tuple[Any, ...], list[int]] = {}
    for s in reference.sessionize(events):
        sessions.setdefault((s.key, s.session_start, s.session_end), []).append(s.event_id)
    return Counter(
        (key, start, end, len(ids), tuple(sorted(ids)))
        for (key, start, end), ids in sessions.items()
    )


def _without_ids(sessions: Counter[tuple[Any, ...]]) -> Counter[tuple[Any, ...]]:
    return Counter({(k[0], k[2], k[3], k[4], k[5]): n for k, n in sessions.items()})


def _batches(data: st.DataObject, rows: list[tuple[Any, ...]], count: int) -> list[list[Any]]:
    """Rows in `count` batches, in shuffled order (late events), some
    delivered again in a later batch (duplicates)."""
    events = [
        (i, user, BASE + timedelta(seconds=second), gap)
        for i, (user, second, gap) in enumerate(rows)
    ]
    return shuffled_batches(data, events, count)


@pytest.mark.server
def test_batches_equal_a_full_rebuild(lab: DbtProject, target: str) -> None:
    """Random events, split into random batches with late arrivals, exact-gap
    ties and duplicates: loaded one batch and one run at a time, the sessions
    (ids and aggregates included) of a fixed and of a per-row gap model equal
    a full rebuild and the reference. Each run builds both models."""
    batches_per_example = 6
    wanted = math.ceil(SPLITS.get(target, SPLITS["thrift"]) / len(MODELS))
    examples = math.ceil(wanted / batches_per_example)
    loads = []

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(rows=events_strategy, data=st.data())
    def check(rows: list[tuple[Any, ...]], data: st.DataObject) -> None:
        _reset(lab)
        # The chained table's ROWS sum keeps its state in every other example.
        first_of_two = len(loads) % (2 * batches_per_example * len(MODELS)) == 0
        os.environ[CHAINED_STATES] = "true" if first_of_two else "false"
        batches = _batches(data, rows, batches_per_example)
        marks: dict[str, dict[tuple[Any, ...], Any]] = {model: {} for model in MODELS}
        chained: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        for number, batch in enumerate(batches, start=1):
            _load(lab, batch)
            # Joins with and without broadcasting the new events and touched sessions.
            broadcast_rows = data.draw(st.sampled_from([0, 200000]))
            run_with_broadcast_rows(lab, broadcast_rows)
            loads.extend([len(batch)] * len(MODELS))
            before, marks = marks, {model: _marks(lab, model) for model in MODELS}
            for model in MODELS:
                _check_marks(before[model], marks[model], number)
            assert _daily(lab) == _daily_expected(marks["sessions_fixed"])
            chained = _check_chained(lab, chained, marks["sessions_fixed"], number)
        incremental = {model: _sessions(lab, model) for model in MODELS}
        events = [row for batch in batches for row in batch]
        for model in MODELS:
            assert _without_ids(incremental[model]) == _expected(events, model.endswith("row"))
        daily = _daily(lab)
        lab.invoke("run", "--full-refresh")
        for model in MODELS:
            assert _sessions(lab, model) == incremental[model]
            assert _marks(lab, model) == marks[model]
        assert _daily(lab) == daily
        assert {k: v[0] for k, v in _chained(lab).items()} == {k: v[0] for k, v in chained.items()}

    try:
        check()
    finally:
        os.environ.pop(CHAINED_STATES, None)
    assert len(loads) >= SPLITS.get(target, SPLITS["thrift"])


@pytest.mark.server
@pytest.mark.parametrize("stop_after", ["pending", "overwrite"])
def test_a_run_that_dies_halfway_is_repaired_by_the_next(lab: DbtProject, stop_after: str) -> None:
    """A run stopped after writing its pending table, or after overwriting the
    partitions, then run again, gives what an uninterrupted run gives."""
    model = "sessions_fixed"
    first = [
        (1, "a", BASE, "10 seconds", 1),
        (2, "a", BASE + timedelta(seconds=30), "10 seconds", 1),
        (3, "b", BASE + timedelta(seconds=70), "10 seconds", 1),
    ]
    # Bridges the two sessions of a, extends b across midnight, repeats event 3.
    second = [
        (4, "a", BASE + timedelta(seconds=15), "10 seconds", 2),
        (5, "b", BASE + timedelta(seconds=79), "10 seconds", 2),
        (3, "b", BASE + timedelta(seconds=70), "10 seconds", 2),
    ]
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", model)
    _load(lab, second)
    run_stopped_after(lab, stop_after, model)
    pending = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
    assert f"{model}__spark_query_catalog_pending" in pending
    lab.invoke("run", "--select", model)
    repaired = _sessions(lab, model)
    assert _without_ids(repaired) == _expected(first + second, per_row=False)
    lab.invoke("run", "--select", model, "--full-refresh")
    assert _sessions(lab, model) == repaired
    tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
    assert f"{model}__spark_query_catalog_pending" not in tables


def _properties(lab: DbtProject, model: str) -> dict[str, str]:
    rows = lab.sql(f"show tblproperties {lab.table(model)}")
    return {r[0]: r[1] for r in rows if r[0].startswith("spark_query_catalog.")}


@pytest.mark.server
def test_the_table_keeps_its_watermark_and_session_days(
    lab: DbtProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watermark (a timestamp loaded_at here, kept as epoch microseconds)
    and the most days a session spans are measured once, then kept up to date
    by each run; a watermark set back (as after a crash) only makes a run
    recompute sessions to the same result."""
    model = "sessions_fixed"
    day = 86_400_000_000
    monkeypatch.setenv(LOADED_AT, "timestamp_seconds(loaded_at * 86400)")
    first = [
        (1, "a", BASE - timedelta(hours=1), "10 seconds", 1),
        (2, "b", BASE + timedelta(seconds=70), "10 seconds", 1),  # 2024-01-02
    ]
    # Extends a's first session (late), and a new session of a from 23:59:00
    # to 00:00:13 the next day: it spans one day.
    second = [
        (3, "a", BASE - timedelta(hours=1) + timedelta(seconds=9), "10 seconds", 2),
        *[(10 + k, "a", BASE + timedelta(seconds=9 * k), "10 seconds", 2) for k in range(8)],
    ]
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", model)
    assert _properties(lab, model) == {}  # a full rebuild measures nothing
    lab.invoke("run", "--select", model)  # nothing new
    assert _properties(lab, model) == {
        "spark_query_catalog.watermark": f"timestamp_micros({day})",
        "spark_query_catalog.session_days": "0",
    }
    _load(lab, second)
    lab.invoke("run", "--select", model)
    # The run rewrote 2024-01-01 (a's sessions), whose new session ends on
    # 2024-01-02: the dates a model downstream reads (changed_rows).
    assert _properties(lab, model) == {
        "spark_query_catalog.watermark": f"timestamp_micros({2 * day})",
        "spark_query_catalog.previous_watermark": f"timestamp_micros({day})",
        "spark_query_catalog.changed_dates": "2024-01-01,2024-01-02",
        "spark_query_catalog.session_days": "1",
    }
    expected = _expected(first + second, per_row=False)
    assert _without_ids(_sessions(lab, model)) == expected
    lab.sql(
        f"alter table {lab.table(model)} set tblproperties "
        f"('spark_query_catalog.watermark' = 'timestamp_micros({day})')"
    )
    lab.invoke("run", "--select", model)
    assert _without_ids(_sessions(lab, model)) == expected
    assert (
        _properties(lab, model)["spark_query_catalog.watermark"] == f"timestamp_micros({2 * day})"
    )


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("event_key=none", "argument `event_key` must be set in the model's config"),
        ("loaded_at=3", "argument `loaded_at` must be a column name or SQL expression (string)"),
        ("aggregates=['count(*)']", "argument `aggregates` must be a dict of alias to aggregate"),
        ("keys=[]", "argument `keys` must be a column name or a non-empty list"),
        ("broadcast_rows=-1", "argument `broadcast_rows` must be a whole number of rows"),
        ("broadcast_rows='many'", "argument `broadcast_rows` must be a whole number of rows"),
        (
            "aggregates={'spark_query_catalog_changed_at': 'max(loaded_at)'}",
            "argument `aggregates` must be aliases that do not start with spark_query_catalog_",
        ),
    ],
)
def test_bad_config_is_a_clear_error(lab: DbtProject, change: str, words: str) -> None:
    """A missing or malformed setting fails naming the materialization and the
    setting, and creates no table."""
    name, value = change.split("=", 1)
    sql, replaced = re.subn(
        rf"^    {name}=.*,$",
        f"    {name}={value},",
        _model_sql("10 seconds"),
        flags=re.M,
    )
    assert replaced == 1
    models = Path(lab.project_dir) / "models"
    (models / "bad_config.sql").write_text(sql)
    try:
        lab.invoke("run", "--select", "bad_config", expect_success=False)
        message = "\n".join(lab.errors)
        assert f"spark_query_catalog.incremental_sessions: {words}" in message, message
        tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
        assert "bad_config" not in tables
    finally:
        (models / "bad_config.sql").unlink()


def test_a_table_it_did_not_build_is_left_alone_with_a_clear_error(lab: DbtProject) -> None:
    """An incremental run over a table of the model's name that has no
    session_date and spark_query_catalog_loaded_at (built another way) fails asking for a
    full refresh, and leaves the table as it was; --full-refresh rebuilds it."""
    model = "sessions_fixed"
    _reset(lab)
    _load(lab, [(1, "a", BASE, "10 seconds", 1)])
    lab.sql(f"create table {lab.table(model)} using parquet as select 'kept' as note")
    lab.invoke("run", "--select", model, expect_success=False)
    message = "\n".join(lab.errors)
    assert (
        "spark_query_catalog.incremental_sessions: "
        f"{lab.table(model)} was not built by incremental_sessions" in message
    ), message
    assert "rebuild it with --full-refresh" in message, message
    assert [tuple(r) for r in lab.sql(f"select * from {lab.table(model)}")] == [("kept",)]
    lab.invoke("run", "--select", model, "--full-refresh")
    expected = _expected([(1, "a", BASE, "10 seconds", 1)], per_row=False)
    assert _without_ids(_sessions(lab, model)) == expected


def test_changed_keys_or_aggregates_need_a_full_refresh(lab: DbtProject) -> None:
    """An incremental run whose config gives other columns than the table's
    fails naming both lists and asking for a full refresh, and leaves the
    table as it was; --full-refresh rebuilds it with the new aggregate."""
    model = "sessions_fixed"
    _reset(lab)
    _load(lab, [(1, "a", BASE, "10 seconds", 1)])
    lab.invoke("run", "--select", model)
    before = _sessions(lab, model)
    _load(lab, [(2, "a", BASE + timedelta(seconds=5), "10 seconds", 2)])
    path = Path(lab.project_dir) / "models" / f"{model}.sql"
    original = path.read_text()
    path.write_text(original.replace("'event_count': 'count(*)'", "'event_count': 'count(*)', "
                                     "'first_event': 'min(event_id)'"))  # fmt: skip
    try:
        lab.invoke("run", "--select", model, expect_success=False)
        message = "\n".join(lab.errors)
        assert (
            "spark_query_catalog.incremental_sessions: "
            f"{lab.table(model)} has the columns user_id, session_id, session_start, "
            "session_end, event_count, event_ids, spark_query_catalog_loaded_at, "
            "spark_query_catalog_changed_at, where the model's keys and aggregates give "
            "user_id, session_id, session_start, session_end, event_count, event_ids, "
            "first_event, spark_query_catalog_loaded_at, spark_query_catalog_changed_at" in message
        ), message
        assert "Rebuild it with --full-refresh." in message
        assert _sessions(lab, model) == before
        # Checked before the run created anything, its events view included.
        views = {r.tableName for r in lab.sql(f"show tables in {lab.schema}") if r.isTemporary}
        assert not [name for name in views if name.startswith("spark_query_catalog_")], views
        lab.invoke("run", "--select", model, "--full-refresh")
        rows = lab.sql(f"select first_event, event_count from {lab.table(model)}")
        assert [tuple(r) for r in rows] == [(1, 2)]
    finally:
        path.write_text(original)


def test_a_day_a_merge_empties_is_dropped_downstream(lab: DbtProject) -> None:
    """A late event merges a's session of 00:00:05 into the one of 23:59:50
    the day before: the upstream loses its second day, and the daily model
    downstream drops it too (its pre-hook), where insert_overwrite alone
    would keep the day's old row."""
    first = [
        (1, "a", BASE + timedelta(seconds=50), "10 seconds", 1),
        (2, "a", BASE + timedelta(seconds=65), "10 seconds", 1),
    ]
    second = [(3, "a", BASE + timedelta(seconds=58), "10 seconds", 2)]
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", f"sessions_fixed {DOWNSTREAM}")
    day = BASE.date()
    assert _daily(lab) == Counter({
        ("a", 1, 1, 1, day): 1, ("a", 1, 1, 1, day + timedelta(days=1)): 1,
    })  # fmt: skip
    _load(lab, second)
    lab.invoke("run", "--select", f"sessions_fixed {DOWNSTREAM}")
    assert _daily(lab) == Counter({("a", 1, 3, 2, day): 1})


def test_a_session_a_merge_removes_leaves_the_chained_table(lab: DbtProject) -> None:
    """Over `sessions_fixed` (span_end): a late event merges a's sessions of
    23:59:50 and of 00:00:05 the next day into one; the chained table loses
    the second session's row and its day (a partition with no row left),
    and the first session's row takes the merged session's windows. b,
    untouched, keeps its row and its mark."""
    first = [
        (1, "a", BASE + timedelta(seconds=50), "10 seconds", 1),
        (2, "a", BASE + timedelta(seconds=65), "10 seconds", 1),
        (3, "b", BASE + timedelta(seconds=20), "10 seconds", 1),
    ]
    second = [(4, "a", BASE + timedelta(seconds=58), "10 seconds", 2)]
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", f"sessions_fixed {CHAINED}")
    day = BASE.date()
    columns = "user_id, session_start, events_last_3, sessions_30s, longest_around"
    rows = f"select {columns}, spark_query_catalog_changed_at from {lab.table(CHAINED)}"
    assert sorted(tuple(r) for r in lab.sql(rows)) == [
        ("a", BASE + timedelta(seconds=50), 1, 1, 1, 1),
        ("a", BASE + timedelta(seconds=65), 2, 2, 1, 1),
        ("b", BASE + timedelta(seconds=20), 1, 1, 1, 1),
    ]
    _load(lab, second)
    lab.invoke("run", "--select", f"sessions_fixed {CHAINED}")
    assert sorted(tuple(r) for r in lab.sql(rows)) == [
        ("a", BASE + timedelta(seconds=50), 3, 1, 3, 2),
        ("b", BASE + timedelta(seconds=20), 1, 1, 1, 1),
    ]
    partitions = lab.sql(f"show partitions {lab.table(CHAINED)}")
    assert [r[0] for r in partitions] == [f"spark_query_catalog_date={day}"]
