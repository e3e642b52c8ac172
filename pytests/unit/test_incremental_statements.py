"""The SQL incremental_sessions runs, exactly, laid out like the public
macros' SQL and clean under sqlfluff's default rules. Rendered with dbt's
Jinja from a model's config, no Spark (the run's questions to Spark are
given as their answers, `bounds`)."""

from __future__ import annotations

from textwrap import dedent
from typing import Any

import pytest

from sqc.testing.jinja import Library, Relation
from sqc.testing.lint import violations

CONFIG = {
    "keys": "user_id",
    "timestamp_column": "event_at",
    "gap": "30 minutes",
    "aggregates": {"event_count": "count(*)"},
    "event_key": "event_id",
    "loaded_at": "loaded_at",
}
EVENTS = "spark_query_catalog_events__analytics__sessions"
TABLE = {
    "relation": Relation("sessions", "analytics"),
    "data_columns": [
        "user_id", "session_id", "session_start", "session_end", "event_count",
        "spark_query_catalog_loaded_at", "spark_query_catalog_changed_at",
    ],
}  # fmt: skip
# A run after loaded_at 41: new events from 00:10 reaching 01:00 on 2024-01-02,
# touching sessions from 23:50 the day before; sessions span at most a day.
BOUNDS = {
    "is_new": "loaded_at > 41",
    "broadcast_new": True,
    "broadcast_touched": False,
    "first_new": "timestamp '2024-01-02 00:10:00'",
    "last_reach": "timestamp '2024-01-02 01:00:00'",
    "first_date": "2023-12-29",
    "last_date": "2024-01-04",
    "touched_start": "timestamp '2024-01-01 23:50:00'",
    "touched_end": "timestamp '2024-01-02 00:40:00'",
    "partitions": ["2024-01-01", "2024-01-02"],
}


def sql(text: str) -> str:
    return dedent(text).strip()


def _settings(**config: Any) -> tuple[Library, dict[str, Any]]:
    library = Library(model_config={**CONFIG, **config})
    return library, library.call("_sqc_incremental_sessions_config")


def _pending(bounds: dict[str, Any] = BOUNDS, **config: Any) -> str:
    library, settings = _settings(**config)
    # The stored table, as built by a full refresh under the same config.
    table = {**TABLE, "data_columns": settings["key_columns"] + TABLE["data_columns"][1:]}
    pending = Relation("sessions__spark_query_catalog_pending", "analytics")
    return str(
        library.call("_sqc_create_pending_sql", pending, settings, table, EVENTS, bounds)
    ).strip()


def _full_refresh(**config: Any) -> str:
    library, settings = _settings(**config)
    return str(
        library.call("_sqc_create_sessions_table_sql", TABLE["relation"], settings, EVENTS)
    ).strip()


def test_the_full_refresh_is_one_create_table_as_select() -> None:
    """Copies of an event counted once, then session_windows' gaps and
    islands, partitioned by session_date."""
    assert _full_refresh() == sql("""
        create table analytics.sessions
        using parquet
        options (partitionoverwritemode 'dynamic')
        partitioned by (session_date)
        as
        with events_by_key as (
            select *
            from spark_query_catalog_events__analytics__sessions
            distribute by user_id
        ),

        event_copies as (
            select
                *,
                row_number() over (
                    partition by user_id, event_id
                    order by loaded_at
                ) as spark_query_catalog_copy,
                max(loaded_at) over (
                    partition by user_id, event_id
                ) as spark_query_catalog_loaded_at
            from events_by_key
        ),

        distinct_events as (
            select * except (spark_query_catalog_copy)
            from event_copies
            where spark_query_catalog_copy = 1
        ),

        sessionize_flags as (
            select
                *,
                coalesce(
                    event_at > lag(event_at) over (
                        partition by user_id
                        order by event_at
                    ) + interval 30 minutes,
                    true
                ) as sessionize_is_new
            from distinct_events
            where event_at is not null
        ),

        sessionize_numbers as (
            select
                *,
                sum(cast(sessionize_is_new as int)) over (
                    partition by user_id
                    order by event_at
                    rows between unbounded preceding and current row
                ) as sessionize_number
            from sessionize_flags
        )

        select
            user_id,
            md5(to_json(struct(user_id, min(event_at) as session_start))) as session_id,
            min(event_at) as session_start,
            max(event_at) + interval 30 minutes as session_end,
            count(*) as event_count,
            max(spark_query_catalog_loaded_at) as spark_query_catalog_loaded_at,
            max(spark_query_catalog_loaded_at) as spark_query_catalog_changed_at,
            to_date(min(event_at)) as session_date
        from sessionize_numbers
        group by user_id, sessionize_number
    """)


def test_the_pending_table_holds_the_new_content_of_the_touched_days() -> None:
    """New events, the stored sessions they touch (broadcast: few new
    events), the older events of those sessions, their sessions recomputed,
    the untouched sessions of the same days kept, one marker row a day."""
    assert _pending() == sql("""
        create table analytics.sessions__spark_query_catalog_pending
        using parquet
        as
        with new_events as (
            select
                *,
                event_at + interval 30 minutes as new_event_reach
            from spark_query_catalog_events__analytics__sessions
            where loaded_at > 41
        ),

        touched_sessions as (
            select /*+ broadcast(new_events) */
                stored_sessions.user_id,
                stored_sessions.session_id,
                stored_sessions.session_start,
                stored_sessions.session_end,
                stored_sessions.session_date
            from analytics.sessions as stored_sessions
            left semi join new_events
                on
                    stored_sessions.user_id <=> new_events.user_id
                    and stored_sessions.session_start <= new_events.new_event_reach
                    and stored_sessions.session_end >= new_events.event_at
            where
                stored_sessions.session_end >= timestamp '2024-01-02 00:10:00'
                and stored_sessions.session_start <= timestamp '2024-01-02 01:00:00'
                and stored_sessions.session_date >= date '2023-12-29'
                and stored_sessions.session_date <= date '2024-01-04'
        ),

        older_events as (
            select *
            from spark_query_catalog_events__analytics__sessions
            where
                (loaded_at > 41) is not true
                and event_at >= timestamp '2024-01-01 23:50:00'
                and event_at <= timestamp '2024-01-02 00:40:00'
        ),

        candidate_events as (
            select *
            from spark_query_catalog_events__analytics__sessions
            where loaded_at > 41
            union all
            select older_events.*
            from older_events
            left semi join touched_sessions
                on
                    older_events.user_id <=> touched_sessions.user_id
                    and older_events.event_at >= touched_sessions.session_start
                    and older_events.event_at <= touched_sessions.session_end
        ),

        events_by_key as (
            select *
            from candidate_events
            distribute by user_id
        ),

        event_copies as (
            select
                *,
                row_number() over (
                    partition by user_id, event_id
                    order by loaded_at
                ) as spark_query_catalog_copy,
                max(loaded_at) over (
                    partition by user_id, event_id
                ) as spark_query_catalog_loaded_at
            from events_by_key
        ),

        distinct_events as (
            select * except (spark_query_catalog_copy)
            from event_copies
            where spark_query_catalog_copy = 1
        ),

        sessionize_flags as (
            select
                *,
                coalesce(
                    event_at > lag(event_at) over (
                        partition by user_id
                        order by event_at
                    ) + interval 30 minutes,
                    true
                ) as sessionize_is_new
            from distinct_events
            where event_at is not null
        ),

        sessionize_numbers as (
            select
                *,
                sum(cast(sessionize_is_new as int)) over (
                    partition by user_id
                    order by event_at
                    rows between unbounded preceding and current row
                ) as sessionize_number
            from sessionize_flags
        )

        select
            stored_sessions.user_id,
            stored_sessions.session_id,
            stored_sessions.session_start,
            stored_sessions.session_end,
            stored_sessions.event_count,
            stored_sessions.spark_query_catalog_loaded_at,
            stored_sessions.spark_query_catalog_changed_at,
            stored_sessions.session_date,
            false as spark_query_catalog_marker
        from analytics.sessions as stored_sessions
        left anti join touched_sessions
            on stored_sessions.session_id = touched_sessions.session_id
        where stored_sessions.session_date in (date '2024-01-01', date '2024-01-02')
        union all
        select
            user_id,
            md5(to_json(struct(user_id, min(event_at) as session_start))) as session_id,
            min(event_at) as session_start,
            max(event_at) + interval 30 minutes as session_end,
            count(*) as event_count,
            max(spark_query_catalog_loaded_at) as spark_query_catalog_loaded_at,
            max(spark_query_catalog_loaded_at) as spark_query_catalog_changed_at,
            to_date(min(event_at)) as session_date,
            false as spark_query_catalog_marker
        from sessionize_numbers
        group by user_id, sessionize_number
        union all
        select
            null as user_id,
            null as session_id,
            null as session_start,
            null as session_end,
            null as event_count,
            null as spark_query_catalog_loaded_at,
            null as spark_query_catalog_changed_at,
            session_date,
            true as spark_query_catalog_marker
        from values date '2024-01-01', date '2024-01-02' as touched_dates (session_date)
    """)


def test_with_no_touched_session_only_the_new_events_are_sessionized() -> None:
    bounds = {**BOUNDS, "touched_start": None, "touched_end": None, "first_date": None,
              "broadcast_new": False, "broadcast_touched": True}  # fmt: skip
    text = _pending(bounds)
    assert "older_events" not in text
    assert (
        "candidate_events as (\n    select *\n"
        "    from spark_query_catalog_events__analytics__sessions\n    where loaded_at > 41\n)"
    ) in text
    assert "/*+ broadcast(touched_sessions) */" in text
    assert "broadcast(new_events)" not in text
    assert "stored_sessions.session_date >= date" not in text
    assert "and stored_sessions.session_date <= date '2024-01-04'" in text


def test_per_row_gaps_and_several_keys() -> None:
    text = _pending(keys=["user_id", "device"], gap="gap", event_key=["event_id", "device"])
    assert "event_at + cast(gap as interval) as new_event_reach" in text
    assert (
        "            stored_sessions.user_id <=> new_events.user_id\n"
        "            and stored_sessions.device <=> new_events.device\n"
    ) in text
    assert "            partition by user_id, device, event_id\n" in text
    assert "    distribute by user_id, device\n" in text
    assert "group by user_id, device, sessionize_number" in text


@pytest.mark.lint
@pytest.mark.parametrize(
    "statement",
    [
        lambda: _full_refresh(),
        lambda: _pending(),
        lambda: _pending({**BOUNDS, "touched_start": None, "touched_end": None}),
        lambda: _full_refresh(gap="gap", keys=["user_id", "device"]),
        lambda: _pending(gap="gap", keys=["user_id", "device"]),
    ],
    ids=["full refresh", "pending", "pending, nothing touched", "full, per-row gap",
         "pending, per-row gap"],
)  # fmt: skip
def test_every_statement_lints_clean(statement: Any) -> None:
    assert violations(statement()) == []


def test_a_table_whose_columns_no_longer_match_the_config_needs_a_full_refresh() -> None:
    library, settings = _settings(aggregates={"event_count": "count(*)", "first_page": "min(page)"})
    message = library.error("_sqc_check_session_columns", TABLE, settings)
    assert message == (
        "spark_query_catalog.incremental_sessions: analytics.sessions has the columns user_id, "
        "session_id, session_start, session_end, event_count, spark_query_catalog_loaded_at, "
        "spark_query_catalog_changed_at, where the model's keys and aggregates give user_id, "
        "session_id, session_start, session_end, event_count, first_page, "
        "spark_query_catalog_loaded_at, spark_query_catalog_changed_at: they changed since the "
        "table was built. Rebuild it with --full-refresh."
    )
    _, same = _settings()
    assert library.call("_sqc_check_session_columns", TABLE, same) in (None, "")
    # A table built before the change marks (0.11) asks for the same.
    unmarked = {**TABLE, "data_columns": TABLE["data_columns"][:-1]}
    assert "Rebuild it with --full-refresh." in library.error(
        "_sqc_check_session_columns", unmarked, same
    )
