{#-
    What a run writes: the full refresh's table, and the pending table that
    holds the new content of the dates an incremental run writes
    (bounds.sql).
-#}


{#- The stored columns of a windows table, in order (spark_query_catalog_date last, apart). -#}
{% macro _sqc_window_table_columns(settings, event_columns) %}
    {{- return(event_columns + settings.aliases + settings.states | map(attribute="column") | list
        + ["spark_query_catalog_loaded_at", "spark_query_catalog_changed_at"]) -}}
{% endmacro %}


{#- The stored columns that a run's frames compute: all but the change mark,
    which the statement that writes the rows sets. -#}
{% macro _sqc_window_computed_columns(table) %}
    {{- return(table.data_columns | reject("equalto", "spark_query_catalog_changed_at") | list) -}}
{% endmacro %}


{#- What an incremental run carries from a stored row to the row written
    in its place (null on a new event's), as [{stored, carried}]: its window
    values, then its mark. -#}
{% macro _sqc_window_was_columns(settings) %}
    {%- set columns = [] -%}
    {%- for alias in settings.aliases -%}
        {%- do columns.append({"stored": alias, "carried": "windows_was_" ~ alias}) -%}
    {%- endfor -%}
    {{- return(columns + [{"stored": "spark_query_catalog_changed_at", "carried": "windows_was_changed_at"}]) -}}
{% endmacro %}


{#- The frames' CTEs (_sqc_window_stages), each `name as (query)`, or
    where it has no name, CTEs of its own (a state frame's results). -#}
{% macro _sqc_window_stage_ctes_sql(stages) %}
    {%- set ctes = [] -%}
    {%- for cte in stages.ctes -%}
        {%- do ctes.append(cte.sql | trim if cte.name is none
            else cte.name ~ " as (\n" ~ cte.sql | trim | indent(4, first=true) ~ "\n)") -%}
    {%- endfor -%}
    {{- return(ctes | join(",\n\n")) -}}
{% endmacro %}


{#- The full refresh: every row, from the last frame's CTE, each marked as
    changed at its own latest load (the table's watermark is the largest:
    a later run's new events are loaded after it, so its marks are greater). -#}
{% macro _sqc_create_windows_table_sql(relation, settings, event_columns, stages) %}
    {%- set columns = spark_query_catalog._sqc_window_table_columns(settings, event_columns)[:-1] + [
        "spark_query_catalog_loaded_at as spark_query_catalog_changed_at",
        "to_date(" ~ settings.order_by ~ ") as spark_query_catalog_date"
    ] -%}
create table {{ relation }}
using parquet
options (partitionoverwritemode 'dynamic')
partitioned by (spark_query_catalog_date)
tblproperties ('spark_query_catalog.run' = 'finished')
as
with {{ spark_query_catalog._sqc_window_stage_ctes_sql(stages) }}

select
{{ spark_query_catalog._sqc_list_lines(columns, 4) }}
from {{ stages.last }}
{%- endmacro %}


{#- The pending table: the new content of every partition a run touches
    (the stored rows it keeps, the rows it writes), whose dates are
    `written_dates` (_sqc_window_written_dates). Without span_end no
    partition is left empty (each holds a row written, or stored rows it
    keeps), so none has the marker row that incremental_sessions writes
    for one.
    The stored rows a run rewrites are, per key, one span in the frames'
    row order (time, then event key): the rows from first_new to last_new,
    widened by the RANGE reach and by the rows a ROWS frame shifts, each
    a span that holds [first_new, last_new] (see the top of reads.sql). So
    the rows kept are those outside their key's span of written rows: a
    join with one row per key of new events (broadcast where the new
    events are), not with every row written. Where the run wrote no table
    of its own (RANGE frames without state: its frames are CTEs here), a
    key's span is its new events' reach, first_new - F to last_new + B:
    every stored row there is written (the top of reads.sql).
    With span_end, the stored rows inside a new event's span are replaced
    (not kept), and a marker row a date says which dates were written, so
    that the apply drops a date left with no row. -#}
{% macro _sqc_create_windows_pending_sql(pending, settings, table, events_view_name, stages, bounds, written_dates) %}
    {%- set t = settings.order_by -%}
    {%- set dates = [] -%}
    {%- for day in written_dates -%}
        {%- do dates.append("date " ~ spark_query_catalog._sqc_string_literal(day)) -%}
    {%- endfor -%}
    {%- set kept_columns = [] -%}
    {%- set marker_columns = [] -%}
    {%- for column in table.data_columns -%}
        {%- do kept_columns.append("stored_events." ~ column) -%}
        {%- do marker_columns.append("null as " ~ column) -%}
    {%- endfor -%}
    {%- set order = spark_query_catalog._sqc_window_row_order(settings) -%}
    {%- set stored_order = [] -%}
    {%- for column in [t] + settings.event_keys -%}
        {%- do stored_order.append("stored_events." ~ column) -%}
    {%- endfor -%}
    {%- set reach = stages.tables == [] -%}
    {%- set match = [spark_query_catalog._sqc_key_match("stored_events", "written_spans", settings.key_columns),
        ("stored_events." ~ t if reach else "struct(" ~ stored_order | join(", ") ~ ")")
        ~ "\n        between written_spans.windows_written_from\n        and written_spans.windows_written_to"] -%}
    {%- set replacing = settings.span_end is not none -%}
    {%- set new_events = spark_query_catalog._sqc_new_window_events_ctes(settings, stages.events_view, bounds) -%}
    {%- set ctes = new_events if reach else new_events[:1] if replacing else [] -%}
    {%- if stages.ctes -%}
        {%- do ctes.append(spark_query_catalog._sqc_window_stage_ctes_sql(stages)) -%}
    {%- endif -%}
    {%- if reach -%}
        {#- Every stored row within its key's reach of the new events is written. -#}
        {%- set written_spans -%}
written_spans as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + [
    spark_query_catalog._sqc_range_reach(settings)[0] ~ " as windows_written_from",
    spark_query_catalog._sqc_range_reach(settings)[1] ~ " as windows_written_to"], 8) }}
    from new_keys
)
        {%- endset -%}
    {%- else -%}
        {%- set written_spans -%}
written_spans as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + [
    "min(struct(" ~ order ~ ")) as windows_written_from",
    "max(struct(" ~ order ~ ")) as windows_written_to"], 8) }}
    from {{ events_view_name }}
    where windows_write
    group by
{{ spark_query_catalog._sqc_list_lines(settings.key_columns, 8) }}
)
        {%- endset -%}
    {%- endif -%}
    {%- do ctes.append(written_spans) -%}
    {%- if replacing -%}
        {%- set written -%}
written_dates as (
    select
        explode(
            array(
{{ spark_query_catalog._sqc_list_lines(dates, 16) }}
            )
        ) as spark_query_catalog_date
)
        {%- endset -%}
        {%- do ctes.append(written) -%}
    {%- endif -%}
    {%- set written_columns = spark_query_catalog._sqc_window_computed_columns(table) -%}
    {#- A written row keeps the mark of the stored row it replaces where
        its window values are the same. -#}
    {%- set was = spark_query_catalog._sqc_window_was_columns(settings) -%}
    {%- set unchanged = [was[-1].carried ~ " is not null"] -%}
    {%- for value in was[:-1] -%}
        {%- do unchanged.append(value.carried ~ " <=> " ~ value.stored) -%}
    {%- endfor -%}
    {%- set mark -%}
case
        when
            {{ unchanged | join("\n            and ") }}
            then windows_was_changed_at
        else {{ bounds.watermark }}
    end as spark_query_catalog_changed_at
    {%- endset -%}
create table {{ pending }}
using parquet
as
with {{ ctes | join(",\n\n") }}

select{{ " /*+ broadcast(written_spans) */" if bounds.broadcast_new }}
{{ spark_query_catalog._sqc_list_lines(kept_columns + ["stored_events.spark_query_catalog_date", "false as spark_query_catalog_marker"], 4) }}
from {{ table.relation }} as stored_events
left anti join written_spans
    on
        {{ match | join("\n        and ") }}
{%- if replacing %}
left anti join new_events as replacing
    on
        {{ spark_query_catalog._sqc_replaced_match(settings) }}
{%- endif %}
where
    stored_events.spark_query_catalog_date in (
{{ spark_query_catalog._sqc_list_lines(dates, 8) }}
    )
union all
select
{{ spark_query_catalog._sqc_list_lines(written_columns + [mark,
    "to_date(" ~ t ~ ") as spark_query_catalog_date", "false as spark_query_catalog_marker"], 4) }}
from {{ stages.last }}
where windows_write
{%- if replacing %}
union all
select
{{ spark_query_catalog._sqc_list_lines(marker_columns + ["spark_query_catalog_date", "true as spark_query_catalog_marker"], 4) }}
from written_dates
{%- endif %}
{%- endmacro %}
