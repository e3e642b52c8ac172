{#-
    materialized='incremental_sessions': one row per session, kept up to date
    from an append-only events source, exactly as a full rebuild would give.

    The model's SQL selects the events (every event ever loaded, duplicates
    included). Config:
      partition_by      key column(s) of a session (as session_windows)
      timestamp_column  the event time column
      gap               fixed ('30 minutes') or a per-row SQL expression
      aggregates        dict of alias to aggregate over a session's events
                        (columns in the order of the aliases: dbt does not
                        keep a config dict's order)
      event_key         column(s) identifying an event: copies are one event
      loaded_at         column that grows with every load (a batch id, a load
                        time): events with a larger value than the table has
                        seen are new

    Like Spark's state store for streaming session windows, a run reads only
    the new events and the sessions they can touch: a new event at t with gap g
    touches the sessions of its key with session_start <= t + g and
    t <= session_end (it extends, merges or bridges them). Those sessions are
    recomputed from their events plus the new ones; every other session is
    left alone. Sessions are stored partitioned by session_date (the date of
    session_start), and only the partitions that held or receive a touched
    session are rewritten.

    A run is crash-safe with a write-ahead table: first the full new content
    of every affected partition is written in one CREATE TABLE ... AS SELECT
    to <model>__sqc_pending (all or nothing); then those partitions are
    overwritten from it (a dynamic-partition INSERT OVERWRITE), partitions
    left empty are dropped, and the pending table is dropped. A run that
    finds a pending table first re-applies it: overwriting a partition with
    the same content twice is harmless, so a run that died at any step is
    repaired by the next, and no session is lost or counted twice. Readers
    during the crash window can see a partition missing (Spark replaces a
    partition by deleting it, then moving the new one in).

    A full refresh (first run, --full-refresh) builds the table in one
    CREATE TABLE ... AS SELECT. Changing the aggregates or the keys needs one.
-#}
{% materialization incremental_sessions, adapter="spark" %}
    {%- set settings = spark_query_catalog._sqc_incremental_sessions_config() -%}
    {%- set target_relation = this.incorporate(type="table") -%}
    {%- set pending = this.incorporate(path={"identifier": this.identifier ~ "__sqc_pending"}, type="table") -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set pending_existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=pending.identifier) -%}

    {{ run_hooks(pre_hooks) }}

    {%- if existing is none or should_full_refresh() or not existing.is_table -%}
        {%- if pending_existing is not none -%}
            {%- do adapter.drop_relation(pending) -%}
        {%- endif -%}
        {%- if existing is not none -%}
            {%- do adapter.drop_relation(existing) -%}
        {%- endif -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(target_relation) -%}
        {%- call statement("main") -%}
create table {{ target_relation }}
using parquet
options (partitionOverwriteMode 'dynamic')
partitioned by (session_date)
as
{{ spark_query_catalog._sqc_sessions_of(settings, "sqc_source", sql, none) }}
        {%- endcall -%}
    {%- else -%}
        {#- The stored columns but the partition column, read once per run. -#}
        {%- set data_columns = adapter.get_columns_in_relation(target_relation)
            | map(attribute="name") | reject("equalto", "session_date") | list -%}
        {#- A run that died after writing its pending table: finish it first. -#}
        {%- if pending_existing is not none -%}
            {%- do spark_query_catalog._sqc_apply_pending(target_relation, pending, data_columns) -%}
        {%- endif -%}
        {%- set seen = run_query("select max(sqc_loaded_at) from " ~ target_relation).rows[0][0] -%}
        {%- set watermark = spark_query_catalog._sqc_literal(seen) if seen is not none else none -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(pending) -%}
        {%- call statement("main") -%}
create table {{ pending }}
using parquet
as
{{ spark_query_catalog._sqc_pending_sql(settings, target_relation, data_columns, sql, watermark) }}
        {%- endcall -%}
        {%- if config.get("sqc_stop_after") == "pending" -%}
            {{- exceptions.raise_compiler_error("incremental_sessions: stopped after writing the pending table (sqc_stop_after, for tests)") -}}
        {%- endif -%}
        {%- do spark_query_catalog._sqc_apply_pending(target_relation, pending, data_columns, config.get("sqc_stop_after")) -%}
    {%- endif -%}

    {{ run_hooks(post_hooks) }}
    {{ return({"relations": [target_relation]}) }}
{% endmaterialization %}


{% macro _sqc_incremental_sessions_config() %}
    {%- set name = "incremental_sessions" -%}
    {%- set settings = {} -%}
    {%- for key in ["partition_by", "timestamp_column", "gap", "aggregates", "event_key", "loaded_at"] -%}
        {%- set value = config.get(key) -%}
        {%- if value is none and key != "aggregates" -%}
            {{- spark_query_catalog._sqc_fail(name, key, "set in the model's config (see macros/materializations/incremental_sessions.sql)", value) -}}
        {%- endif -%}
        {%- do settings.update({key: value}) -%}
    {%- endfor -%}
    {%- do settings.update({
        "key_columns": spark_query_catalog._sqc_string_list(settings.partition_by, name, "partition_by", allow_empty=false),
        "event_keys": spark_query_catalog._sqc_string_list(settings.event_key, name, "event_key", allow_empty=false)
    }) -%}
    {%- for key in ["timestamp_column", "loaded_at", "gap"] -%}
        {%- if settings[key] is not string or settings[key] | trim == "" -%}
            {{- spark_query_catalog._sqc_fail(name, key, "a column name or SQL expression (string)", settings[key]) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- set aggregates = settings.aggregates or {} -%}
    {%- if aggregates is not mapping -%}
        {{- spark_query_catalog._sqc_fail(name, "aggregates", "a dict of alias to aggregate", aggregates) -}}
    {%- endif -%}
    {#- dbt does not keep the order of a dict in a model's config from one
        parse to the next: the aggregate columns follow their aliases' order. -#}
    {%- set all_aggregates = {} -%}
    {%- for alias, expression in aggregates | dictsort -%}
        {%- do all_aggregates.update({alias: expression}) -%}
    {%- endfor -%}
    {%- do all_aggregates.update({"sqc_loaded_at": "max(sqc_loaded_at)"}) -%}
    {%- do settings.update({"all_aggregates": all_aggregates}) -%}
    {%- set fixed_gap = spark_query_catalog._sqc_fixed_gap(settings.gap) -%}
    {%- set reach = settings.timestamp_column ~ " + " ~ (
        "interval " ~ fixed_gap if fixed_gap is not none else "cast(" ~ settings.gap ~ " as interval)"
    ) -%}
    {%- do settings.update({"reach_sql": reach}) -%}
    {{- return(settings) -}}
{% endmacro %}


{#- Sessions (with session_date) of the deduplicated events of `events_sql`
    (the model's SQL), keeping only the events that `candidate_filter` (SQL
    over the events, or none for all) lets through. -#}
{% macro _sqc_sessions_of(settings, events_name, events_sql, candidate_filter) %}
    {%- set sessions = spark_query_catalog.session_windows(
        "sqc_events", settings.key_columns, settings.timestamp_column, settings.gap, settings.all_aggregates
    ) -%}
    {%- set copies = settings.event_keys | join(", ") -%}
select
    *,
    to_date(session_start) as session_date
from (
    with {{ events_name }} as (
        {{ events_sql | indent(8) }}
    ),

    sqc_copies as (
        select
            *,
            row_number() over (partition by {{ copies }} order by {{ settings.loaded_at }}) as sqc_copy,
            max({{ settings.loaded_at }}) over (partition by {{ copies }}) as sqc_loaded_at
        from {{ events_name }}
        {%- if candidate_filter is not none %}
        where {{ candidate_filter }}
        {%- endif %}
    ),

    sqc_events as (
        select * except (sqc_copy)
        from sqc_copies
        where sqc_copy = 1
    )

    select *
    from (
        {{ sessions | indent(8) }}
    ) as sqc_windows
) as sqc_sessions
{%- endmacro %}


{#- The new content of every partition a run touches, plus one sentinel row
    per such partition (so that a partition left empty is known). -#}
{% macro _sqc_pending_sql(settings, target, data_columns, events_sql, watermark) %}
    {%- set key_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do key_match.append("s." ~ key ~ " <=> n." ~ key) -%}
    {%- endfor -%}
    {%- set event_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do event_match.append("t." ~ key ~ " <=> e." ~ key) -%}
    {%- endfor -%}
    {%- set is_new = settings.loaded_at ~ " > " ~ watermark if watermark is not none else "true" -%}
    {%- set touched_filter -%}
{{ is_new }}
            or exists (
                select 1
                from sqc_touched as t
                where {{ event_match | join(" and ") }}
                    and e.{{ settings.timestamp_column }} between t.session_start and t.session_end
            )
    {%- endset -%}
with sqc_new as (
    select
        *,
        {{ settings.reach_sql }} as sqc_reach
    from ({{ events_sql }}) as sqc_source
    where {{ is_new }}
),

sqc_touched as (
    select distinct
        {%- for key in settings.key_columns %}
        s.{{ key }},
        {%- endfor %}
        s.session_id,
        s.session_start,
        s.session_end,
        s.session_date
    from {{ target }} as s
    inner join sqc_new as n
        on {{ key_match | join(" and ") }}
        and s.session_start <= n.sqc_reach
        and n.{{ settings.timestamp_column }} <= s.session_end
),

sqc_recomputed as (
    {{ spark_query_catalog._sqc_sessions_of(settings, "e", events_sql, touched_filter) | indent(4) }}
),

sqc_partitions as (
    select session_date from sqc_touched
    union
    select session_date from sqc_recomputed
)

select {% for column in data_columns %}s.{{ column }}, {% endfor %}s.session_date, false as sqc_sentinel
from {{ target }} as s
left semi join sqc_partitions as p
    on s.session_date = p.session_date
left anti join sqc_touched as t
    on s.session_id = t.session_id
union all
select {{ data_columns | join(", ") }}, session_date, false as sqc_sentinel
from sqc_recomputed
union all
select {% for column in data_columns %}null as {{ column }}, {% endfor %}session_date, true as sqc_sentinel
from sqc_partitions
{%- endmacro %}


{#- Overwrite the pending partitions, drop the ones left empty, drop the
    pending table. Each step can be repeated after a crash. -#}
{% macro _sqc_apply_pending(target, pending, data_columns, stop_after=none) %}
    {%- do run_query(
        "insert overwrite table " ~ target ~ " partition (session_date) select "
        ~ data_columns | join(", ") ~ ", session_date from " ~ pending ~ " where not sqc_sentinel"
    ) -%}
    {%- if stop_after == "overwrite" -%}
        {{- exceptions.raise_compiler_error("incremental_sessions: stopped after the overwrite (sqc_stop_after, for tests)") -}}
    {%- endif -%}
    {%- set emptied = run_query(
        "select distinct cast(session_date as string) from " ~ pending ~ " where sqc_sentinel"
        ~ " except select distinct cast(session_date as string) from " ~ pending ~ " where not sqc_sentinel"
    ) -%}
    {%- for row in emptied.rows -%}
        {%- do run_query("alter table " ~ target ~ " drop if exists partition (session_date = date'" ~ row[0] ~ "')") -%}
    {%- endfor -%}
    {%- do adapter.drop_relation(pending) -%}
{% endmacro %}
