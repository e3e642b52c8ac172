{#-
    What a run works on, as literals, so that Spark can skip files and
    partitions (parquet min/max statistics, partition pruning) instead of
    reading all events and all sessions:
      is_new            the filter of the new events (loaded_at above the watermark)
      first_new         the earliest time of a new event
      last_reach        the latest time a new event reaches (its time + gap)
      first_date,
      last_date         the session_date partitions a touched session can be in
      touched_start,
      touched_end       the span of those sessions (both none when there are none)
      partitions        the dates of those sessions and of the new events
      broadcast_new,
      broadcast_touched whether the new events, the touched sessions are
                        few enough (broadcast_rows) to send to every task
                        instead of shuffling both sides of their joins
    none when there are no new events.

    A new event at t with gap g can only touch the sessions of its key with
    session_start <= t + g and t <= session_end: sessions of one key are more
    than a gap apart, and a session's events lie in [session_start, session_end].
-#}
{% macro _sqc_incremental_bounds(settings, table, events_view) %}
    {%- set watermark = table.state.watermark -%}
    {%- set is_new = settings.loaded_at ~ " > " ~ watermark if watermark is not none else "true" -%}
    {%- set new = run_query(spark_query_catalog._sqc_new_events_summary_sql(settings, events_view, is_new)).rows[0] -%}
    {%- if new[0] == 0 or new[1] is none -%}
        {#- No new events, or none with a time (no session has one). -#}
        {{- return(none) -}}
    {%- endif -%}
    {#- Touched sessions start on or before the last reach's date, and no more
        than session_days before the first new event's. session_date is the
        date in the time zone of the run that wrote it: two days either way
        keep the bounds safe for runs in other time zones. -#}
    {%- set day = modules.datetime.timedelta(days=1) -%}
    {%- set first_date = modules.datetime.date.fromisoformat(new[5]) -%}
    {%- set last_date = modules.datetime.date.fromisoformat(new[6]) -%}
    {%- set bounds = {
        "is_new": is_new,
        "broadcast_new": new[0] <= settings.broadcast_rows,
        "first_new": spark_query_catalog._sqc_typed_literal(new[1], new[2]),
        "last_reach": spark_query_catalog._sqc_typed_literal(new[3], new[4]),
        "first_date": (first_date - day * (table.state.session_days + 2)) | string
            if table.state.session_days is not none else none,
        "last_date": (last_date + day * 2) | string
    } -%}
    {%- set touched_summary -%}
with {{ spark_query_catalog._sqc_touched_sessions_ctes(settings, table.relation, events_view, bounds) | join(",\n\n") }}

select
    cast(min(session_start) as string) as touched_start,
    cast(max(session_end) as string) as touched_end,
    typeof(min(session_start)) as time_type,
    to_json(collect_set(cast(session_date as string))) as session_dates,
    count(*) as touched_sessions
from touched_sessions
    {%- endset -%}
    {%- set touched = run_query(touched_summary).rows[0] -%}
    {#- A recomputed session is touched sessions and new events merged: it
        starts on the date of one of them. -#}
    {%- set dates = (fromjson(new[7]) + fromjson(touched[3])) | unique | sort -%}
    {%- do bounds.update({
        "touched_start": spark_query_catalog._sqc_typed_literal(touched[0], touched[2]) if touched[0] is not none else none,
        "touched_end": spark_query_catalog._sqc_typed_literal(touched[1], touched[2]) if touched[0] is not none else none,
        "partitions": dates,
        "broadcast_touched": touched[4] <= settings.broadcast_rows
    }) -%}
    {{- return(bounds) -}}
{% endmacro %}


{#- The first question of a run: how many new events, their span and dates. -#}
{% macro _sqc_new_events_summary_sql(settings, events_view, is_new) %}
    {%- set ts = settings.timestamp_column -%}
select
    count(*) as new_events,
    cast(min({{ ts }}) as string) as first_new,
    typeof(min({{ ts }})) as first_new_type,
    cast(max({{ settings.reach_sql }}) as string) as last_reach,
    typeof(max({{ settings.reach_sql }})) as last_reach_type,
    cast(to_date(min({{ ts }})) as string) as first_date,
    cast(to_date(max({{ settings.reach_sql }})) as string) as last_date,
    to_json(collect_set(cast(to_date({{ ts }}) as string))) as new_dates
from {{ events_view }}
where {{ is_new }}
{%- endmacro %}
