"""Windows inside dbt's microbatch, in a consumer project on the package.

dbt runs a microbatch model once per batch (a day here) and cuts every ref()
with an event_time to the batch's range. A 7-day RANGE frame written with
`rolling` then sees one day: the issue's example gives 1, 1, 1, 1 where a full
refresh gives 1, 2, 3, 4, and the run is green. `rolling_select` on the ref
reads the rows its frame reaches before the batch (its halo) and returns the
batch's rows: after the batches the table equals the pure-Python reference
of the whole history. `rolling` warns."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator

import pytest

from sqc.paths import STATE
from sqc.testing import reference
from sqc.testing.dbt_harness import DbtProject, write_consumer_project

T = dt.datetime
# u1: one event a day (the example); u2: several a day, two at one
# instant, an event exactly 7 days after another, kinds repeating.
EVENTS = [("u1", T(2024, 1, d, 12, 0), 1, "view") for d in range(1, 11)] + [
    ("u2", T(2024, 1, 1, 9, 0), 5, "view"),
    ("u2", T(2024, 1, 1, 9, 0), 7, "buy"),
    ("u2", T(2024, 1, 2, 23, 59, 59), 2, "view"),
    ("u2", T(2024, 1, 8, 9, 0), 4, "click"),  # exactly 7 days after the first two
    ("u2", T(2024, 1, 8, 9, 0, 1), 3, "view"),
    ("u2", T(2024, 1, 9, 0, 0), 6, "buy"),  # at a batch's first instant
    ("u2", T(2024, 1, 10, 23, 0), 1, "click"),
]
MICROBATCH = (
    "{{ config(materialized='incremental', incremental_strategy='microbatch', "
    "event_time='event_at', batch_size='day', begin='2024-01-01', lookback=0, "
    "partition_by=['event_day'], file_format='parquet') }}\n"
)


@pytest.fixture(scope="module")
def batched(target: str) -> Iterator[DbtProject]:
    directory = STATE / "microbatch_consumer"
    write_consumer_project(
        directory, "microbatch_consumer",
        "seeds:\n  microbatch_consumer:\n    +file_format: parquet\n    +event_time: event_at\n"
        "    +column_types: {event_at: timestamp, amount: int}\n",
    )  # fmt: skip
    (directory / "seeds" / "events.csv").write_text(
        "user_id,event_at,amount,kind\n"
        + "".join(f"{u},{t:%Y-%m-%d %H:%M:%S},{a},{k}\n" for u, t, a, k in EVENTS)
    )
    (directory / "models" / "features.sql").write_text(
        MICROBATCH + "select *, cast(event_at as date) as event_day from (\n"
        "{{ spark_query_catalog.rolling_select(ref('events'), {'amount_7d': 'sum(amount)', "
        "'events_7d': 'count(*)', 'kinds_7d': 'count(distinct kind)'}, 'event_at', "
        "partition_by='user_id', frame='range', preceding='7 days') }}\n) as rolled\n"
    )
    (directory / "models" / "features_cut.sql").write_text(
        MICROBATCH + "select *, cast(event_at as date) as event_day, "
        "{{ spark_query_catalog.rolling('count(*)', 'event_at', partition_by='user_id', "
        "frame='range', preceding='7 days', relation=ref('events')) }} as events_7d "
        "from {{ ref('events') }}\n"
    )
    dbt = DbtProject(directory, target=target, schema="pytest_package_microbatch")
    dbt.invoke("deps")
    dbt.invoke("seed")
    yield dbt
    # dbt-spark's incremental strategies stage each batch in a temporary view
    # and leave it; a temporary view is listed among any schema's tables.
    for model in ("features", "features_cut", "features_rows", "calendar_cut"):
        dbt.sql(f"drop view if exists {model}__dbt_tmp")
    dbt.drop_schema()
    shutil.rmtree(directory, ignore_errors=True)


def _reference(aggregate: str, value: int) -> dict[int, object]:
    """Each event's aggregate of column `value` over its user's 7 days up to it."""
    rows = [reference.FrameRow(i, e[0], e[1], e[value]) for i, e in enumerate(EVENTS)]
    return reference.frame_aggregate(
        rows, aggregate, "range", -dt.timedelta(days=7), dt.timedelta(0)
    )


def test_rolling_select_in_batches_equals_the_whole_history(batched: DbtProject) -> None:
    batched.invoke(
        "run", "--select", "features", "--event-time-start", "2024-01-01",
        "--event-time-end", "2024-01-11",
    )  # fmt: skip
    rows = batched.sql(
        f"select user_id, event_at, amount_7d, events_7d, kinds_7d from {batched.schema}.features"
    )
    got = {(r.user_id, r.event_at): (r.amount_7d, r.events_7d, r.kinds_7d) for r in rows}
    amounts, counts, kinds = (
        _reference("sum", 2), _reference("count_rows", 2), _reference("count_distinct", 3)
    )  # fmt: skip
    expected = {(u, t): (amounts[i], counts[i], kinds[i]) for i, (u, t, *_) in enumerate(EVENTS)}
    assert len(rows) == len(EVENTS)
    assert got == expected
    # The example: one event a day, a 7-day frame.
    assert [got["u1", T(2024, 1, d, 12, 0)][1] for d in range(1, 5)] == [1, 2, 3, 4]


def test_rolling_on_a_cut_input_warns_and_sees_one_day(batched: DbtProject) -> None:
    batched.invoke(
        "run", "--select", "features_cut", "--event-time-start", "2024-01-01",
        "--event-time-end", "2024-01-05",
    )  # fmt: skip
    assert any(
        "spark_query_catalog.rolling: model features_cut runs in microbatch batches" in w
        and "rolling_select" in w
        for w in batched.warnings
    ), batched.warnings
    rows = batched.sql(f"select user_id, event_at, events_7d from {batched.schema}.features_cut")
    counts = {(r.user_id, r.event_at): r.events_7d for r in rows}
    assert [counts["u1", T(2024, 1, d, 12, 0)] for d in range(1, 5)] == [1, 1, 1, 1]


def test_rolling_calendar_in_batches_warns(batched: DbtProject) -> None:
    """rolling_calendar over a ref dbt cuts to the batch sees only the
    batch's events: each day counts its own events alone, and it warns."""
    (batched.project_dir / "models" / "calendar_cut.sql").write_text(
        MICROBATCH + "select *, date_day as event_day from (\n"
        "{{ spark_query_catalog.rolling_calendar(ref('events'), {'events_7d': 'count(*)'}, "
        "'event_at', partition_by='user_id', preceding=6) }}\n) as days\n"
    )
    batched.invoke(
        "run", "--select", "calendar_cut", "--event-time-start", "2024-01-01",
        "--event-time-end", "2024-01-03",
    )  # fmt: skip
    assert any(
        "spark_query_catalog.rolling_calendar: model calendar_cut runs in microbatch batches" in w
        and "each key's steps, its frames and its fills see none of the rows" in w
        for w in batched.warnings
    ), batched.warnings
    rows = batched.sql(f"select user_id, date_day, events_7d from {batched.schema}.calendar_cut")
    assert {(r.date_day.day, r.events_7d) for r in rows if r.user_id == "u1"} == {(1, 1), (2, 1)}


def test_a_frame_the_halo_cannot_bound_is_an_error(batched: DbtProject) -> None:
    (batched.project_dir / "models" / "features_rows.sql").write_text(
        MICROBATCH + "select *, cast(event_at as date) as event_day from (\n"
        "{{ spark_query_catalog.rolling_select(ref('events'), {'amount_3': 'sum(amount)'}, "
        "'event_at', partition_by='user_id', preceding=2) }}\n) as rolled\n"
    )
    try:
        result = batched.invoke(
            "run", "--select", "features_rows", "--event-time-start", "2024-01-01",
            "--event-time-end", "2024-01-02", expect_success=False,
        )  # fmt: skip
        assert not result.success
        # dbt reports a failed batch as ERROR and logs its error at debug level.
        message = "\n".join(batched.errors + batched.debugs)
        assert "rolling_select" in message and "inside a microbatch batch" in message
        assert "frame='range' with order_by='event_at'" in message
    finally:
        (batched.project_dir / "models" / "features_rows.sql").unlink()
