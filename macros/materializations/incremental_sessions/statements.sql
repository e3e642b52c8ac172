{#-
    The SQL of incremental_sessions, laid out like the public macros' SQL.
    The model's SQL (the events) is read through a temporary view,
    `events_view`, created at the start of the run: every statement names it,
    and Spark inlines it into each as it would a subquery (filters and file
    skipping included).
-#}


{#- The full refresh: every session of every event, in one CREATE TABLE ... AS SELECT. -#}
{% macro _sqc_create_sessions_table_sql(relation, settings, events_view) %}
    {%- set sessions = spark_query_catalog._sqc_session_groups_of(settings) -%}
create table {{ relation }}
using parquet
options (partitionoverwritemode 'dynamic')
partitioned by (session_date)
as
with {{ (spark_query_catalog._sqc_distinct_events_ctes(settings, events_view) + sessions.ctes) | join(",\n\n") }}

select
{{ spark_query_catalog._sqc_list_lines(sessions.columns, 4) }}
from sessionize_numbers
group by {{ sessions.group_by }}
{%- endmacro %}


{#- Copies of an event count once: rows of the same session keys and
    event_key are copies, the first loaded is kept, and the latest load of
    any copy is the event's spark_query_catalog_loaded_at. The events are distributed by the
    session keys once, which the copies' window and the sessions' windows
    both use: one shuffle. CTEs ending in distinct_events, over the relation
    `events`. -#}
{% macro _sqc_distinct_events_ctes(settings, events) %}
    {%- set keys = settings.key_columns | join(", ") -%}
    {%- set copy_keys = settings.key_columns | list -%}
    {%- for key in settings.event_keys if key not in copy_keys -%}
        {%- do copy_keys.append(key) -%}
    {%- endfor -%}
    {%- set copies = copy_keys | join(", ") -%}
    {%- set events_by_key -%}
events_by_key as (
    select *
    from {{ events }}
    distribute by {{ keys }}
)
    {%- endset -%}
    {%- set event_copies -%}
event_copies as (
    select
        *,
        row_number() over (
            partition by {{ copies }}
            order by {{ settings.loaded_at }}
        ) as spark_query_catalog_copy,
        max({{ settings.loaded_at }}) over (
            partition by {{ copies }}
        ) as spark_query_catalog_loaded_at
    from events_by_key
)
    {%- endset -%}
    {%- set distinct_events -%}
distinct_events as (
    select * except (spark_query_catalog_copy)
    from event_copies
    where spark_query_catalog_copy = 1
)
    {%- endset -%}
    {{- return([events_by_key, event_copies, distinct_events]) -}}
{% endmacro %}


{#- The sessions of distinct_events (session_windows' gaps and islands):
    its CTEs, the columns of the select that groups sessionize_numbers by
    `group_by`, with session_date last. -#}
{% macro _sqc_session_groups_of(settings) %}
    {#- distinct_events is a CTE here: nothing to introspect. -#}
    {%- set parts = spark_query_catalog._sqc_session_parts(
        api.Relation.create(identifier="distinct_events", type="cte"),
        settings.key_columns, settings.timestamp_column, settings.gap, "gaps_and_islands",
        "incremental_sessions"
    ) -%}
    {%- set aggregate_sql = [] -%}
    {%- for aggregate in spark_query_catalog._sqc_aggregates(settings.all_aggregates, "incremental_sessions") -%}
        {%- do aggregate_sql.append(spark_query_catalog._sqc_aggregate_sql(aggregate)) -%}
    {%- endfor -%}
    {%- set groups = spark_query_catalog._sqc_session_groups(parts, aggregate_sql) -%}
    {%- do groups.update({"columns": groups.columns + ["to_date(min(" ~ parts.time_sql ~ ")) as session_date"]}) -%}
    {{- return(groups) -}}
{% endmacro %}


{#- The new events (with how far each reaches) and the stored sessions they
    touch: CTEs new_events and touched_sessions. The range filters on
    session_start, session_end and session_date follow from the join's
    conditions and let Spark skip the files of every other day. -#}
{% macro _sqc_touched_sessions_ctes(settings, target, events_view, bounds) %}
    {%- set key_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do key_match.append("stored_sessions." ~ key ~ " <=> new_events." ~ key) -%}
    {%- endfor -%}
    {%- set new_events -%}
new_events as (
    select
        *,
        {{ settings.reach_sql }} as new_event_reach
    from {{ events_view }}
    where {{ bounds.is_new }}
)
    {%- endset -%}
    {%- set touched_sessions -%}
touched_sessions as (
    select{{ " /*+ broadcast(new_events) */" if bounds.broadcast_new }}
        {%- for key in settings.key_columns %}
        stored_sessions.{{ key }},
        {%- endfor %}
        stored_sessions.session_id,
        stored_sessions.session_start,
        stored_sessions.session_end,
        stored_sessions.session_date
    from {{ target }} as stored_sessions
    left semi join new_events
        on
            {{ (key_match + [
                "stored_sessions.session_start <= new_events.new_event_reach",
                "stored_sessions.session_end >= new_events." ~ settings.timestamp_column
            ]) | join("\n            and ") }}
    where
        stored_sessions.session_end >= {{ bounds.first_new }}
        and stored_sessions.session_start <= {{ bounds.last_reach }}
        {%- if bounds.first_date is not none %}
        and stored_sessions.session_date >= date '{{ bounds.first_date }}'
        {%- endif %}
        and stored_sessions.session_date <= date '{{ bounds.last_date }}'
)
    {%- endset -%}
    {{- return([new_events, touched_sessions]) -}}
{% endmacro %}


{#- The events a run recomputes: the new ones, and the older ones inside a
    touched session (all between touched_start and touched_end). Two plain
    filters and a semi join, not `new or exists (...)`: Spark would keep
    that filter above its existence join and read every event; these it
    pushes down to the files. CTEs ending in candidate_events. -#}
{% macro _sqc_candidate_events_ctes(settings, events_view, bounds) %}
    {%- set ts = settings.timestamp_column -%}
    {%- if bounds.touched_start is none -%}
        {{- return(["candidate_events as (\n    select *\n    from " ~ events_view ~ "\n    where " ~ bounds.is_new ~ "\n)"]) -}}
    {%- endif -%}
    {%- set event_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do event_match.append("older_events." ~ key ~ " <=> touched_sessions." ~ key) -%}
    {%- endfor -%}
    {%- set older_events -%}
older_events as (
    select *
    from {{ events_view }}
    where
        ({{ bounds.is_new }}) is not true
        and {{ ts }} >= {{ bounds.touched_start }}
        and {{ ts }} <= {{ bounds.touched_end }}
)
    {%- endset -%}
    {%- set candidate_events -%}
candidate_events as (
    select *
    from {{ events_view }}
    where {{ bounds.is_new }}
    union all
    select{{ " /*+ broadcast(touched_sessions) */" if bounds.broadcast_touched }} older_events.*
    from older_events
    left semi join touched_sessions
        on
            {{ (event_match + [
                "older_events." ~ ts ~ " >= touched_sessions.session_start",
                "older_events." ~ ts ~ " <= touched_sessions.session_end"
            ]) | join("\n            and ") }}
)
    {%- endset -%}
    {{- return([older_events, candidate_events]) -}}
{% endmacro %}


{#- The pending table: the new content of every partition a run touches
    (the stored sessions it keeps, the recomputed ones), plus one
    marker row per such partition (so that a partition left empty is known). -#}
{% macro _sqc_create_pending_sql(pending, settings, table, events_view, bounds) %}
    {%- set dates = [] -%}
    {%- for day in bounds.partitions -%}
        {%- do dates.append("date " ~ spark_query_catalog._sqc_string_literal(day)) -%}
    {%- endfor -%}
    {%- set kept_columns = [] -%}
    {%- set marker_columns = [] -%}
    {%- for column in table.data_columns -%}
        {%- do kept_columns.append("stored_sessions." ~ column) -%}
        {%- do marker_columns.append("null as " ~ column) -%}
    {%- endfor -%}
    {%- set sessions = spark_query_catalog._sqc_session_groups_of(settings) -%}
    {%- set ctes = spark_query_catalog._sqc_touched_sessions_ctes(settings, table.relation, events_view, bounds)
        + spark_query_catalog._sqc_candidate_events_ctes(settings, events_view, bounds)
        + spark_query_catalog._sqc_distinct_events_ctes(settings, "candidate_events")
        + sessions.ctes -%}
create table {{ pending }}
using parquet
as
with {{ ctes | join(",\n\n") }}

select{{ " /*+ broadcast(touched_sessions) */" if bounds.broadcast_touched }}
{{ spark_query_catalog._sqc_list_lines(kept_columns + ["stored_sessions.session_date", "false as spark_query_catalog_marker"], 4) }}
from {{ table.relation }} as stored_sessions
left anti join touched_sessions
    on stored_sessions.session_id = touched_sessions.session_id
where stored_sessions.session_date in ({{ dates | join(", ") }})
union all
select
{{ spark_query_catalog._sqc_list_lines(sessions.columns + ["false as spark_query_catalog_marker"], 4) }}
from sessionize_numbers
group by {{ sessions.group_by }}
union all
select
{{ spark_query_catalog._sqc_list_lines(marker_columns + ["session_date", "true as spark_query_catalog_marker"], 4) }}
from values {{ dates | join(", ") }} as touched_dates (session_date)
{%- endmacro %}
