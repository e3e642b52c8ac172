"""incremental_windows: loading events batch by batch gives exactly the
window columns of a full rebuild over all of them (and of the pure-Python
frame reference), with late, repeated and tied events, keys whose frames
reach weeks back, and runs that die halfway."""

from __future__ import annotations

import math
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

BASE = datetime(2024, 1, 1, 23, 59, 50)  # events cross midnight: two partitions
COLUMNS = [
    ("event_id", "int"), ("card", "string"), ("event_at", "timestamp"),
    ("amount", "int"), ("loaded_at", "int"),
]  # fmt: skip
# Window column: (expression, frame, preceding, following) as in the config,
# and the reference's aggregate, frame and offsets.
WINDOWS: dict[str, dict[str, Any]] = {
    "amount_10s": {"expression": "sum(amount)", "frame": "range", "preceding": "10 seconds"},
    "amounts_2d": {"expression": "count(distinct amount)", "frame": "range", "preceding": "2 days"},
    "events_next_6s": {"expression": "count(*)", "frame": "range", "preceding": 0,
                       "following": "6 seconds"},
    "amount_max_3": {"expression": "max(amount)", "frame": "rows", "preceding": 3},
    "amount_sum_2_1": {"expression": "sum(amount)", "frame": "rows", "preceding": 2,
                       "following": 1},
    # A frame that keeps its state (sum, count, avg ending at the row:
    # frame_states=true on the model below, narrow as it is).
    "amount_avg_4": {"expression": "avg(amount)", "frame": "rows", "preceding": 4},
    "amount_sum_4": {"expression": "sum(amount)", "frame": "rows", "preceding": 4},
    "events_4": {"expression": "count(*)", "frame": "rows", "preceding": 4},
    "amount_sum_7": {"expression": "sum(amount)", "frame": "rows", "preceding": 7},
}  # fmt: skip
REFERENCE = {
    "amount_10s": ("sum", "range", -timedelta(seconds=10), timedelta(0)),
    "amounts_2d": ("count_distinct", "range", -timedelta(days=2), timedelta(0)),
    "events_next_6s": ("count_rows", "range", timedelta(0), timedelta(seconds=6)),
    "amount_max_3": ("max", "rows", -3, 0),
    "amount_sum_2_1": ("sum", "rows", -2, 1),
    "amount_avg_4": ("avg", "rows", -4, 0),
    "amount_sum_4": ("sum", "rows", -4, 0),
    "events_4": ("count_rows", "rows", -4, 0),
    "amount_sum_7": ("sum", "rows", -7, 0),
}
# Three models: every kind of frame (ROWS frames need the rank passes and the
# keys read from before the probe), RANGE frames only (time bounds only), and
# frames that keep their state (a run reads one stored row before the rows
# it rewrites, and the heads of that row's frames): two of them, the first
# given before a frame that does not (a run computes its state frames last,
# the last one's results straight into the pending table).
MODELS = {
    "features": sorted(set(WINDOWS) - {"amount_avg_4", "amount_sum_4", "events_4", "amount_sum_7"}),
    "features_range": ["amount_10s", "events_next_6s"],
    "features_states": ["amount_avg_4", "amount_sum_4", "events_4", "amount_max_3", "amount_sum_7"],
}
MODEL = """{{{{ config(
    materialized='incremental_windows',
    keys='card',
    order_by='event_at',
    windows={windows},
    event_key='event_id',
    loaded_at='loaded_at',
    {broadcast_rows},
    frame_states={frame_states},
    {fault_injection}
) }}}}
select event_id, card, event_at, amount, loaded_at from {{{{ target.schema }}}}.events
"""
# A model downstream of `features`: per card and day, from the rows that
# changed since its last run (changed_rows), whole days replaced.
DOWNSTREAM = "features_daily"
DOWNSTREAM_SQL = """{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    file_format='parquet',
    partition_by=['summary_date']
) }}
select
    card,
    count(*) as events,
    sum(amount_10s) as amount_10s,
    max(amount_max_3) as amount_max_3,
    max(spark_query_catalog_changed_at) as spark_query_catalog_changed_at,
    spark_query_catalog_date as summary_date
from (
    {{ spark_query_catalog.changed_rows(ref('features'), groups='spark_query_catalog_date') }}
) as features
group by card, spark_query_catalog_date
"""
# A feature table over `features`' rows (a chain): a row whose values a late
# event changed is a newer version of its event, read by its mark, and
# replaces the stored one (copies='last'). Its ROWS frame keeps its state.
CHAINED = "features_chained"
CHAINED_WINDOWS = {
    "amount_10s_sum_2": {"expression": "sum(amount_10s)", "frame": "rows", "preceding": 2},
    "amount_max_3_5s": {"expression": "max(amount_max_3)", "frame": "range",
                        "preceding": "5 seconds"},
}  # fmt: skip
CHAINED_REFERENCE = {
    "amount_10s_sum_2": ("sum", "rows", -2, 0),
    "amount_max_3_5s": ("max", "range", -timedelta(seconds=5), timedelta(0)),
}
CHAINED_SQL = f"""{{{{ config(
    materialized='incremental_windows',
    keys='card',
    order_by='event_at',
    windows={CHAINED_WINDOWS},
    event_key='event_id',
    loaded_at='features_changed_at',
    copies='last',
    frame_states=true,
    {BROADCAST_ROWS_CONFIG}
) }}}}
select
    event_id,
    card,
    event_at,
    amount_10s,
    amount_max_3,
    spark_query_catalog_changed_at as features_changed_at
from {{{{ ref('features') }}}}
"""
# Batch loads in all (each dbt run loads a batch into both models), per
# target: on a server one example, since a server changes how the statements
# reach Spark, not what they compute.
SPLITS = {"session": 24, "thrift": 8}


def _model_sql(model: str) -> str:
    return MODEL.format(
        windows={alias: WINDOWS[alias] for alias in MODELS[model]},
        frame_states=model == "features_states",
        broadcast_rows=BROADCAST_ROWS_CONFIG,
        fault_injection=FAULT_INJECTION_CONFIG,
    )


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, target: str) -> Iterator[DbtProject]:
    models = {name: _model_sql(name) for name in MODELS}
    models[DOWNSTREAM] = DOWNSTREAM_SQL
    models[CHAINED] = CHAINED_SQL
    yield from lab_project(
        tmp_path_factory.mktemp("windows_lab"), models, target, "pytest_windows_lab"
    )


# (card, day, second after BASE on that day, amount): days far apart make the
# ROWS frames of a sparse card reach back past the run's probe of recent days.
events_strategy = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from([0, 0, 0, 1, 2, 12, 30]),
        st.integers(min_value=0, max_value=24).map(lambda s: s - s % 2),  # many exact ties
        st.one_of(st.none(), st.integers(1, 4)),
    ),
    min_size=1,
    max_size=30,
)


def _reset(lab: DbtProject) -> None:
    reset_events(lab, COLUMNS, [*MODELS, DOWNSTREAM, CHAINED])


def _load(lab: DbtProject, rows: list[tuple[Any, ...]]) -> None:
    load_events(lab, rows, COLUMNS)


def _table(lab: DbtProject, model: str) -> Counter[tuple[Any, ...]]:
    """Every column of every row, the hidden ones included (the frames'
    states last, as JSON)."""
    states = [
        f"to_json({name})"
        for name, _ in lab.columns(f"select * from {lab.table(model)}")
        if name.startswith("spark_query_catalog_rows_")
    ]
    columns = [
        "event_id", "card", "event_at", "amount", "loaded_at", *MODELS[model],
        "spark_query_catalog_loaded_at", "spark_query_catalog_date", *states,
    ]  # fmt: skip
    rows = lab.sql(f"select {', '.join(columns)} from {lab.table(model)}")
    return Counter(tuple(r) for r in rows)


def _expected(events: list[tuple[Any, ...]], model: str) -> Counter[tuple[Any, ...]]:
    """The pure-Python frames over the events, one copy of each."""
    unique = sorted({row[:4] for row in events}, key=lambda row: (row[2], row[0]))
    values: dict[str, dict[int, Any]] = {}
    for alias in MODELS[model]:
        aggregate, frame, start, end = REFERENCE[alias]
        rows = [
            reference.FrameRow(index, card, at if frame == "range" else (at, event_id), amount)
            for index, (event_id, card, at, amount) in enumerate(unique)
        ]
        values[alias] = reference.frame_aggregate(rows, aggregate, frame, start, end)
    return Counter(
        (*row, *(values[alias][index] for alias in MODELS[model]))
        for index, row in enumerate(unique)
    )


def _marks(lab: DbtProject, model: str) -> dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]]:
    """Each row's event (event_id, card, event_at): its window values and its change mark."""
    windows = ", ".join(MODELS[model])
    rows = lab.sql(
        f"select event_id, card, event_at, {windows}, spark_query_catalog_changed_at"
        f" from {lab.table(model)}"
    )
    return {tuple(r[:3]): (tuple(r[3:-1]), r[-1]) for r in rows}


def _check_marks(
    before: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]],
    after: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]],
    batch: int,
) -> None:
    """A row whose window values a run changed (or a new one) carries the
    run's mark, its batch's loaded_at; every other row keeps its own."""
    assert before.keys() <= after.keys()
    for event, (values, mark) in after.items():
        if event in before and before[event][0] == values:
            assert mark == before[event][1], (event, values, before[event], mark)
        else:
            assert mark == batch, (event, values, before.get(event), mark)


def _daily(lab: DbtProject) -> Counter[tuple[Any, ...]]:
    return Counter(tuple(r) for r in lab.sql(f"select * from {lab.table(DOWNSTREAM)}"))


def _daily_expected(lab: DbtProject) -> Counter[tuple[Any, ...]]:
    """features_daily, computed in Python from every row of `features`."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    rows = lab.sql(
        "select card, amount_10s, amount_max_3, spark_query_catalog_changed_at,"
        f" spark_query_catalog_date from {lab.table('features')}"
    )
    for card, amount_10s, amount_max_3, mark, day in rows:
        groups.setdefault((card, day), []).append((amount_10s, amount_max_3, mark))
    sums = {key: [v[0] for v in values if v[0] is not None] for key, values in groups.items()}
    maxes = {key: [v[1] for v in values if v[1] is not None] for key, values in groups.items()}
    return Counter(
        (card, len(values), sum(sums[card, day]) if sums[card, day] else None,
         max(maxes[card, day], default=None), max(v[2] for v in values), day)
        for (card, day), values in groups.items()
    )  # fmt: skip


def _chained(lab: DbtProject) -> dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]]:
    """Each row of the chained table by event (event_id, card, event_at): its
    window values and its change mark."""
    rows = lab.sql(
        f"select event_id, card, event_at, {', '.join(sorted(CHAINED_WINDOWS))},"
        f" spark_query_catalog_changed_at from {lab.table(CHAINED)}"
    )
    return {tuple(r[:3]): (tuple(r[3:-1]), r[-1]) for r in rows}


def _chained_expected(lab: DbtProject) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """The chained windows, computed in Python over `features`' rows as they
    are now."""
    rows = lab.sql(
        f"select event_id, card, event_at, amount_10s, amount_max_3 from {lab.table('features')}"
    )
    unique = sorted((tuple(r) for r in rows), key=lambda row: (row[2], row[0]))
    values = {}
    for alias, column in [("amount_10s_sum_2", 3), ("amount_max_3_5s", 4)]:
        aggregate, frame, start, end = CHAINED_REFERENCE[alias]
        frame_rows = []
        for i, (event_id, card, at, *_) in enumerate(unique):
            order = at if frame == "range" else (at, event_id)
            frame_rows.append(reference.FrameRow(i, card, order, unique[i][column]))
        values[alias] = reference.frame_aggregate(frame_rows, aggregate, frame, start, end)
    return {
        row[:3]: tuple(values[alias][i] for alias in sorted(CHAINED_WINDOWS))
        for i, row in enumerate(unique)
    }


def _check_chained_marks(
    before: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]],
    after: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]],
    upstream: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]],
    batch: int,
) -> None:
    """A chained row carries the run's mark where its window values changed
    or its upstream row did (a newer version replaced it); else its own."""
    for event, (values, mark) in after.items():
        if event in before and before[event][0] == values and upstream[event][1] != batch:
            assert mark == before[event][1], (event, values, before[event], mark)
        else:
            assert mark == batch, (event, values, before.get(event), mark)


def _windows_only(table: Counter[tuple[Any, ...]], model: str) -> Counter[tuple[Any, ...]]:
    """event_id, card, event_at, amount and the window columns."""
    width = len(MODELS[model])
    return Counter({(*k[:4], *k[5 : 5 + width]): n for k, n in table.items()})


def _batches(data: st.DataObject, rows: list[tuple[Any, ...]], count: int) -> list[list[Any]]:
    """Rows in `count` batches, in shuffled order (late events), some
    delivered again in a later batch (copies)."""
    events = [
        (i, card, BASE + timedelta(days=day, seconds=second), amount)
        for i, (card, day, second, amount) in enumerate(rows)
    ]
    return shuffled_batches(data, events, count)


@pytest.mark.server
def test_batches_equal_a_full_rebuild(lab: DbtProject, target: str) -> None:
    """Random events over a month, split into random batches with late
    arrivals, ties and copies: loaded one batch and one run at a time, every
    window column equals the reference, and the whole table (the hidden
    columns included) equals a full rebuild. Each run builds both models."""
    batches_per_example = 4
    wanted = math.ceil(SPLITS.get(target, SPLITS["thrift"]) / len(MODELS))
    examples = math.ceil(wanted / batches_per_example)
    loads = []

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(rows=events_strategy, data=st.data())
    def check(rows: list[tuple[Any, ...]], data: st.DataObject) -> None:
        _reset(lab)
        batches = _batches(data, rows, batches_per_example)
        marks: dict[str, dict[tuple[Any, ...], Any]] = {model: {} for model in MODELS}
        chained: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        for number, batch in enumerate(batches, start=1):
            _load(lab, batch)
            broadcast_rows = data.draw(st.sampled_from([0, 200000]))
            run_with_broadcast_rows(lab, broadcast_rows)
            loads.extend([len(batch)] * len(MODELS))
            before, marks = marks, {model: _marks(lab, model) for model in MODELS}
            for model in MODELS:
                _check_marks(before[model], marks[model], number)
            assert _daily(lab) == _daily_expected(lab)
            before_chained, chained = chained, _chained(lab)
            assert {k: v[0] for k, v in chained.items()} == _chained_expected(lab)
            _check_chained_marks(before_chained, chained, marks["features"], number)
        incremental = {model: _table(lab, model) for model in MODELS}
        events = [row for batch in batches for row in batch]
        for model in MODELS:
            assert _windows_only(incremental[model], model) == _expected(events, model), model
        daily = _daily(lab)
        lab.invoke("run", "--full-refresh")
        for model in MODELS:
            assert _table(lab, model) == incremental[model], model
        assert {k: v[0] for k, v in _chained(lab).items()} == {k: v[0] for k, v in chained.items()}
        # The same summary (but its marks, all the latest load's now).
        assert Counter(k[:4] + k[5:] for k in _daily(lab).elements()) == Counter(
            k[:4] + k[5:] for k in daily.elements()
        )

    check()
    assert len(loads) >= SPLITS.get(target, SPLITS["thrift"])


# Both kill points on the session; on a server, the later one (its repair
# re-applies the pending table and records the watermark).
@pytest.mark.parametrize(
    "stop_after", [pytest.param("pending"), pytest.param("overwrite", marks=pytest.mark.server)]
)
def test_a_run_that_dies_halfway_is_repaired_by_the_next(lab: DbtProject, stop_after: str) -> None:
    """A run stopped after writing its pending table, or after overwriting the
    partitions, then run again, gives what an uninterrupted run gives."""
    model = "features"
    first = [
        (1, "a", BASE, 1, 1),
        (2, "a", BASE + timedelta(seconds=8), 2, 1),
        (3, "b", BASE + timedelta(seconds=12), 3, 1),
        (4, "a", BASE + timedelta(days=20), 4, 1),
    ]
    # Late into a's first frames, a new day for b, event 3 again.
    second = [
        (5, "a", BASE + timedelta(seconds=4), 3, 2),
        (6, "b", BASE + timedelta(days=1), 1, 2),
        (3, "b", BASE + timedelta(seconds=12), 3, 2),
    ]
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", model)
    _load(lab, second)
    run_stopped_after(lab, stop_after, model)
    tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
    assert f"{model}__spark_query_catalog_pending" in tables
    # A model downstream refuses to read the table halfway.
    lab.invoke("run", "--select", DOWNSTREAM, expect_success=False)
    assert f"{lab.table(model)} has an unfinished run" in "\n".join(lab.errors)
    lab.invoke("run", "--select", CHAINED, expect_success=False)
    assert f"{lab.table(model)} has an unfinished run" in "\n".join(lab.errors)
    # The run's own tables are left too, and the table says a run started.
    run_events = f"{model}__spark_query_catalog_run_events"
    assert run_events in tables
    assert _run_property(lab, model) == "started"
    if stop_after == "pending":
        # As if a CREATE of the run's events had been killed: its directory
        # with no table, which Spark refuses to create a table over.
        location = _location(lab, run_events)
        lab.sql(f"drop table {lab.schema}.{run_events}")
        location.mkdir(parents=True)
        (location / "part-00000-killed.parquet").write_bytes(b"PAR1")
    lab.invoke("run", "--select", model)
    repaired = _table(lab, model)
    assert _windows_only(repaired, model) == _expected(first + second, model)
    assert _run_property(lab, model) == "finished"
    lab.invoke("run", "--select", DOWNSTREAM)
    assert _daily(lab) == _daily_expected(lab)
    # A run after a finished one writes its tables straight away.
    _load(lab, [(7, "b", BASE + timedelta(days=2), 5, 3)])
    lab.invoke("run", "--select", model)
    assert not [q for q in lab.queries if "__spark_query_catalog_probe" in q], lab.queries
    assert _run_property(lab, model) == "finished"
    repaired = _table(lab, model)
    assert _windows_only(repaired, model) == _expected(
        first + second + [(7, "b", BASE + timedelta(days=2), 5, 3)], model
    )
    lab.invoke("run", "--select", model, "--full-refresh")
    assert _table(lab, model) == repaired
    tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
    assert not [name for name in tables if "__spark_query_catalog_" in name], tables


def test_a_summary_that_fell_behind_reads_every_change_since(lab: DbtProject) -> None:
    """The daily summary reads the dates the upstream's last run recorded
    only where it had read up to the run before: two runs behind, it asks
    which dates changed since its mark (without the question it would miss
    the first of them); up to date, it reads nothing."""
    model = "features"
    fast = "spark_query_catalog_date in ("
    _reset(lab)
    _load(lab, [(1, "a", BASE, 1, 1), (2, "b", BASE + timedelta(days=5), 2, 1)])
    lab.invoke("run", "--select", model, DOWNSTREAM)
    # Late into a's day, then into b's: two feature runs, the summary runs after both.
    _load(lab, [(3, "a", BASE + timedelta(seconds=3), 4, 2)])
    lab.invoke("run", "--select", model)
    _load(lab, [(4, "b", BASE + timedelta(days=5, seconds=2), 8, 3)])
    lab.invoke("run", "--select", model)
    lab.invoke("run", "--select", DOWNSTREAM)
    assert not [q for q in lab.queries if fast in q]
    assert _daily(lab) == _daily_expected(lab)
    # One run behind: the recorded dates, no question of the features' marks.
    _load(lab, [(5, "a", BASE + timedelta(days=1), 16, 4)])
    lab.invoke("run", "--select", model)
    lab.invoke("run", "--select", DOWNSTREAM)
    assert [q for q in lab.queries if fast in q]
    assert not [q for q in lab.queries if "changed_groups" in q]
    assert _daily(lab) == _daily_expected(lab)
    # Up to date: nothing changed, nothing of the features read, the summary kept.
    daily = _daily(lab)
    lab.invoke("run", "--select", DOWNSTREAM)
    assert [q for q in lab.queries if "where false" in q]
    assert not [q for q in lab.queries if fast in q or "changed_groups" in q]
    assert _daily(lab) == daily == _daily_expected(lab)


def test_a_table_dropped_by_hand_after_a_run_died_is_rebuilt_and_runs_on(
    lab: DbtProject,
) -> None:
    """A run dies after writing its own tables, and the user drops the
    model's table (and the pending one) by hand: the next run rebuilds it,
    drops the dead run's tables, and the run after it, which writes them
    again, succeeds (before, it failed: the table already exists)."""
    model = "features_states"  # a state frame: anchors and results tables too
    first = [(1, "a", BASE, 1, 1), (2, "a", BASE + timedelta(seconds=8), 2, 1)]
    second = [(3, "a", BASE + timedelta(seconds=4), 3, 2)]
    third = [(4, "a", BASE + timedelta(seconds=6), 4, 3)]
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", model)
    _load(lab, second)
    run_stopped_after(lab, "pending", model)
    tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
    left = {name for name in tables if name.startswith(f"{model}__spark_query_catalog_run_")}
    assert f"{model}__spark_query_catalog_run_events" in left, tables
    lab.sql(f"drop table {lab.table(model)}")
    lab.sql(f"drop table {lab.table(model + '__spark_query_catalog_pending')}")
    lab.invoke("run", "--select", model)
    tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
    assert not left & tables, tables
    _load(lab, third)
    lab.invoke("run", "--select", model)
    assert _windows_only(_table(lab, model), model) == _expected(first + second + third, model)


def _run_property(lab: DbtProject, model: str) -> str | None:
    rows = lab.sql(f"show tblproperties {lab.schema}.{model}")
    return next((r[1] for r in rows if r[0] == "spark_query_catalog.run"), None)


def _location(lab: DbtProject, table: str) -> Path:
    rows = lab.sql(f"describe table extended {lab.schema}.{table}")
    location = next(r[1] for r in rows if r[0] == "Location")
    return Path(location.removeprefix("file:"))


@pytest.mark.parametrize("model", ["features", "features_states"])
def test_rows_frames_read_back_only_for_keys_with_older_rows(lab: DbtProject, model: str) -> None:
    """A key long unseen reads its stored rows from before the run's probe
    (a second question finds from which date, and the run writes its
    events again from there: with state frames, the first one's anchors
    too, which answered the first question); a key seen for the first time
    has none, and its run asks only the first question, of the events it
    wrote once. Both equal the reference and a full rebuild."""
    first = [
        (1, "a", BASE, 1, 1),
        (2, "a", BASE + timedelta(seconds=2), 2, 1),
        (3, "a", BASE + timedelta(seconds=4), 3, 1),
        (4, "b", BASE + timedelta(days=29), 1, 1),
        (5, "b", BASE + timedelta(days=30), 2, 1),
    ]
    # a again 30 days on: its 3-row frame holds all three rows of day 0.
    second = [
        (6, "b", BASE + timedelta(days=30, seconds=10), 4, 2),
        (7, "a", BASE + timedelta(days=30, seconds=20), 0, 2),
    ]
    third = [(8, "c", BASE + timedelta(days=30, seconds=30), 2, 3)]  # c: a new key
    _reset(lab)
    _load(lab, first)
    lab.invoke("run", "--select", model)
    asked, written, anchored = [], [], []
    run_events = re.escape(f"{lab.schema}.{model}__spark_query_catalog_run_events")
    anchors = re.escape(f"{lab.schema}.{model}__spark_query_catalog_run_anchors_1")
    for batch in (second, third):
        _load(lab, batch)
        lab.invoke("run", "--select", model)
        asked.append(sum("as older_from" in query for query in lab.queries))
        statements = "\n".join(lab.queries)
        written.append(len(re.findall(rf"^\s*create table {run_events}$", statements, re.M)))
        anchored.append(len(re.findall(rf"^\s*create table {anchors}$", statements, re.M)))
    assert asked == [1, 0]
    assert written == [2, 1]
    assert anchored == ([2, 1] if model == "features_states" else [0, 0])
    # A run with nothing new writes no table of its own, and drops none.
    lab.invoke("run", "--select", model)
    assert not re.search(run_events, "\n".join(lab.queries))
    table = _table(lab, model)
    assert _windows_only(table, model) == _expected(first + second + third, model)
    width = len(MODELS[model])
    by_id = {row[0]: dict(zip(MODELS[model], row[5 : 5 + width], strict=True)) for row in table}
    assert by_id[7]["amount_max_3"] == 3  # 1, 2, 3 and a's new 0, a month on
    if model == "features":
        assert by_id[7]["amount_sum_2_1"] == 5 and by_id[3]["amount_sum_2_1"] == 6
    else:
        assert by_id[7]["amount_sum_7"] == 6 and by_id[7]["events_4"] == 4
    lab.invoke("run", "--select", model, "--full-refresh")
    assert _table(lab, model) == table


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("windows={'total': {'expression': 'sum(amount)', 'frame': 'rows'}}",
         "window total (rows between unbounded preceding and current row): an unbounded end"),
        ("windows={'amount': {'expression': 'sum(amount)', 'preceding': 2}}",
         "the model's events have a column amount, which is the name of a window"),
        ("order_by='amount'", "argument `order_by` must be a date or timestamp column"),
        ("keys='user_id'", "argument `keys` must be columns of the model's events"),
        ("event_key='event_id', span_end='amount'",
         "argument `span_end` must be a column of the model's events of order_by's type"
         " (timestamp)"),
    ],
)  # fmt: skip
def test_bad_config_is_a_clear_error(lab: DbtProject, change: str, words: str) -> None:
    """A frame that cannot be kept incrementally, or a setting that does not
    fit the model's events, fails naming the materialization and the
    setting, and creates no table (the other compile errors: the unit tier's
    test_window_statements)."""
    name, value = change.split("=", 1)
    sql, replaced = re.subn(
        rf"^    {name}=.*,$", f"    {name}={value},", _model_sql("features"), flags=re.M
    )
    assert replaced == 1
    _reset(lab)
    models = Path(lab.project_dir) / "models"
    (models / "bad_config.sql").write_text(sql)
    try:
        lab.invoke("run", "--select", "bad_config", expect_success=False)
        message = "\n".join(lab.errors)
        assert f"spark_query_catalog.incremental_windows: {words}" in message, message
        # No table, and no temporary view left in the session either.
        tables = {r.tableName for r in lab.sql(f"show tables in {lab.schema}")}
        assert not [name for name in tables if "bad_config" in name], tables
    finally:
        (models / "bad_config.sql").unlink()


def test_the_catalog_model_loads_load_by_load(project: DbtProject) -> None:
    """The catalog's card_features_incremental, run after each of its three
    loads (late and repeated transactions among them), equals its expected
    output, computed by the reference over all of them; the table says
    which load each row last came from."""
    seeds = "card_transaction_loads card_features_incremental_expected card_daily_spend_expected"
    project.invoke("seed", "--select", seeds)
    model, summary = "card_features_incremental", "card_daily_spend"
    loads = project.sql(f"select * from {project.table('card_transaction_loads')}")
    before: dict[int, tuple[Any, ...]] = {}
    marks: dict[int, int] = {}
    for load in (1, 2, 3):
        # The last load is the variable's default: dbt parses the whole
        # project again whenever --vars change (about 8 s for the catalog),
        # and the `dbt test` below then parses nothing.
        loaded = () if load == 3 else ("--vars", f"{{card_transaction_loads: {load}}}")
        project.invoke("run", "--select", model, summary, *loaded)
        if load == 1:
            rows = project.sql(f"select count(*) as n from {project.table(model)}")
            assert rows[0].n == 17  # the distinct transactions of load 1
        # Each row's mark: the last load that changed its reference values.
        values = _catalog_values([row for row in loads if row.loaded_at <= load])
        marks.update({txn: load for txn, v in values.items() if before.get(txn) != v})
        before = values
        stored = project.sql(
            f"select txn_id, spark_query_catalog_changed_at from {project.table(model)}"
        )
        assert dict(stored) == marks, load
        # The daily summary, from what changed: as if from every feature row.
        features = project.sql(
            "select card_id, amount, amount_last_7_days, spark_query_catalog_changed_at,"
            f" spark_query_catalog_date from {project.table(model)}"
        )
        days: dict[tuple[Any, ...], list[Any]] = {}
        for card, amount, amount_7_days, mark, day in features:
            days.setdefault((card, day), []).append((amount, amount_7_days, mark))
        expected = Counter(
            (card, len(v), sum(a for a, _, _ in v), max(w for _, w, _ in v),
             max(m for _, _, m in v), day)
            for (card, day), v in days.items()
        )  # fmt: skip
        rows = project.sql(f"select * from {project.table(summary)}")
        assert Counter(tuple(r) for r in rows) == expected, load
    assert set(marks.values()) == {1, 2, 3}  # some rows keep an earlier load's mark
    project.invoke("test", "--select", model, summary)
    properties = {r[0]: r[1] for r in project.sql(f"show tblproperties {project.table(model)}")}
    assert properties["spark_query_catalog.watermark"] == "3"


def _catalog_values(loaded: list[Any]) -> dict[int, tuple[Any, ...]]:
    """card_features_incremental's windows over the transactions loaded so
    far (a copy counts once), from the pure-Python reference."""
    first = {}
    for row in sorted(loaded, key=lambda r: r.loaded_at):
        first.setdefault(row.txn_id, row)
    rows = list(first.values())
    by_time = [reference.FrameRow(r.txn_id, r.card_id, r.txn_at, r.amount) for r in rows]
    by_row = [reference.FrameRow(r.txn_id, r.card_id, (r.txn_at, r.txn_id), r.amount) for r in rows]
    windows = [
        reference.frame_aggregate(by_time, "sum", "range", -timedelta(days=7), timedelta(0)),
        reference.frame_aggregate(
            by_time, "count_rows", "range", -timedelta(hours=24), timedelta(0)
        ),
        reference.frame_aggregate(by_row, "avg", "rows", -19, 0, decimal_scale=2),
    ]
    return {r.txn_id: tuple(window[r.txn_id] for window in windows) for r in rows}
