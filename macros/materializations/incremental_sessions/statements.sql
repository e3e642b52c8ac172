{#-
    The SQL of incremental_sessions, laid out like the public macros' SQL.
    The model's SQL (the events) is read through a temporary view,
    `events_view`, created at the start of the run: every statement names it,
    and Spark inlines it into each as it would a subquery (filters and file
    skipping included).
-#}

{#- The temporary view of a run's events: one name per model, so that
    threads building several models on one Spark session never share it. -#}
{% macro _sqc_events_view_name(relation) %}
    {{- return("sqc_events__" ~ relation.schema ~ "__" ~ relation.identifier) -}}
{% endmacro %}


{% macro _sqc_create_events_view_sql(events_view, events_sql) %}
create or replace temporary view {{ events_view }} as
{{ events_sql }}
{%- endmacro %}

{#- The full refresh: every session of every event, in one CREATE TABLE ... AS SELECT. -#}
{% macro _sqc_create_sessions_table_sql(relation, settings, events_view) %}
create table {{ relation }}
using parquet
options (partitionOverwriteMode 'dynamic')
partitioned by (session_date)
as
{{ spark_query_catalog._sqc_sessions_of(settings, events_view) }}
{%- endmacro %}


{#- Sessions (with session_date) of the events of the relation `events`
    (the run's events view, or the events a run recomputes), copies of an
    event counted once: the first loaded copy is kept, and the latest load of
    any copy is the event's sqc_loaded_at. -#}
{% macro _sqc_sessions_of(settings, events) %}
    {#- distinct_events is a CTE here: nothing to introspect. -#}
    {%- set sessions = spark_query_catalog.session_windows(
        api.Relation.create(identifier="distinct_events", type="cte"),
        settings.key_columns, settings.timestamp_column, settings.gap, settings.all_aggregates
    ) -%}
    {%- set copies = settings.event_keys | join(", ") -%}
with event_copies as (
    select
        *,
        row_number() over (
            partition by {{ copies }}
            order by {{ settings.loaded_at }}
        ) as sqc_copy,
        max({{ settings.loaded_at }}) over (
            partition by {{ copies }}
        ) as sqc_loaded_at
    from {{ events }}
),

distinct_events as (
    select * except (sqc_copy)
    from event_copies
    where sqc_copy = 1
),

sessions as (
    {{ sessions | indent(4) }}
)

select
    *,
    to_date(session_start) as session_date
from sessions
{%- endmacro %}


{#- The stored sessions that the new events touch. The range filter on
    session_start and session_end follows from the join's conditions and
    lets Spark skip the files of every other day. -#}
{% macro _sqc_touched_sessions_sql(settings, target, events_view, bounds) %}
    {%- set key_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do key_match.append("stored_sessions." ~ key ~ " <=> new_events." ~ key) -%}
    {%- endfor -%}
select{{ " /*+ broadcast(new_events) */" if bounds.broadcast_new }}
    {%- for key in settings.key_columns %}
    stored_sessions.{{ key }},
    {%- endfor %}
    stored_sessions.session_id,
    stored_sessions.session_start,
    stored_sessions.session_end,
    stored_sessions.session_date
from {{ target }} as stored_sessions
left semi join (
    select
        *,
        {{ settings.reach_sql }} as sqc_reach
    from {{ events_view }}
    where {{ bounds.is_new }}
) as new_events
    on {{ key_match | join("\n    and ") }}
    and stored_sessions.session_start <= new_events.sqc_reach
    and new_events.{{ settings.timestamp_column }} <= stored_sessions.session_end
where stored_sessions.session_end >= {{ bounds.first_new }}
    and stored_sessions.session_start <= {{ bounds.last_reach }}
    {%- if bounds.first_date is not none %}
    and stored_sessions.session_date between date '{{ bounds.first_date }}' and date '{{ bounds.last_date }}'
    {%- else %}
    and stored_sessions.session_date <= date '{{ bounds.last_date }}'
    {%- endif %}
{%- endmacro %}


{#- The events a run recomputes: the new ones, and those inside a touched
    session (all between touched_start and touched_end). Two plain filters
    and a semi join, not `new or exists (...)`: Spark would keep that filter
    above its existence join and read every event; these it pushes down to
    the files. -#}
{% macro _sqc_candidate_events_sql(settings, events_view, bounds) %}
    {%- set ts = settings.timestamp_column -%}
    {%- set event_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do event_match.append("touched_sessions." ~ key ~ " <=> older_events." ~ key) -%}
    {%- endfor -%}
select *
from {{ events_view }}
where {{ bounds.is_new }}
    {%- if bounds.touched_start is not none %}
union all
select{{ " /*+ broadcast(touched_sessions) */" if bounds.broadcast_touched }} *
from (
    select *
    from {{ events_view }}
    where ({{ bounds.is_new }}) is not true
        and {{ ts }} between {{ bounds.touched_start }} and {{ bounds.touched_end }}
) as older_events
left semi join touched_sessions
    on {{ event_match | join("\n    and ") }}
    and older_events.{{ ts }} between touched_sessions.session_start and touched_sessions.session_end
    {%- endif %}
{%- endmacro %}


{#- The pending table: the new content of every partition a run touches,
    plus one marker row per such partition (so that a partition left empty
    is known). -#}
{% macro _sqc_create_pending_sql(pending, settings, table, events_view, bounds) %}
    {%- set data_columns = table.data_columns -%}
    {%- set dates = [] -%}
    {%- for day in bounds.partitions -%}
        {%- do dates.append("date " ~ spark_query_catalog._sqc_string_literal(day)) -%}
    {%- endfor -%}
    {%- set kept_columns = [] -%}
    {%- set marker_columns = [] -%}
    {%- for column in data_columns -%}
        {%- do kept_columns.append("stored_sessions." ~ column) -%}
        {%- do marker_columns.append("null as " ~ column) -%}
    {%- endfor -%}
create table {{ pending }}
using parquet
as
with touched_sessions as (
    {{ spark_query_catalog._sqc_touched_sessions_sql(settings, table.relation, events_view, bounds) | indent(4) }}
),

candidate_events as (
    {{ spark_query_catalog._sqc_candidate_events_sql(settings, events_view, bounds) | indent(4) }}
),

recomputed_sessions as (
    {{ spark_query_catalog._sqc_sessions_of(settings, "candidate_events") | indent(4) }}
),

kept_sessions as (
    select{{ " /*+ broadcast(touched_sessions) */" if bounds.broadcast_touched }}
        {{ (kept_columns + ["stored_sessions.session_date"]) | join(",\n        ") }}
    from {{ table.relation }} as stored_sessions
    left anti join touched_sessions
        on stored_sessions.session_id = touched_sessions.session_id
    where stored_sessions.session_date in ({{ dates | join(", ") }})
),

partition_markers as (
    select
        {{ (marker_columns + ["session_date"]) | join(",\n        ") }}
    from values {{ dates | join(", ") }} as partitions (session_date)
)

select
    *,
    false as sqc_marker
from kept_sessions
union all
select
    {{ (data_columns + ["session_date"]) | join(",\n    ") }},
    false as sqc_marker
from recomputed_sessions
union all
select
    *,
    true as sqc_marker
from partition_markers
{%- endmacro %}
