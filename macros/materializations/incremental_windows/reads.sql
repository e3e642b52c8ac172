{#-
    The SQL of incremental_windows, laid out like the public macros' SQL.

    Every run computes its windows with rolling_select over one temporary
    view, the run's events (_sqc_window_events_sql): all distinct events for
    a full refresh; for an incremental run, the new events and only the
    stored rows whose windows they change or whose frames those need, each
    with windows_write (whether its row is written). One further
    view per frame adds that frame's columns (rolling_select reads the
    types of the view before it).

    Which stored rows a run rewrites, per key of new events, with first_new
    and last_new the key's earliest and latest new event time:
      - every row between first_new and last_new;
      - RANGE frames reaching back B and forward F: the rows from
        first_new - F to last_new + B (their frames hold a new event);
      - ROWS frames reaching back b rows and forward f rows: the b stored rows
        after last_new and the f before first_new (their frames shift).
    What it reads besides: the rows those rows' frames hold (B, F of time
    around them; b rows before the earliest, f after the latest), where a
    frame that keeps its state (states.sql) counts as 1 row back: the
    stored row before the rewritten ones, whose state it starts from.
-#}


{#- CTEs new_events and new_keys: a run's new events, and per key the time
    of its first and last (with span_end, the end of its last span: the
    stored rows it replaces lie before it). -#}
{% macro _sqc_new_window_events_ctes(settings, events_view, bounds) %}
    {%- set keys = settings.key_columns | join(",\n        ") -%}
    {%- set new_events -%}
new_events as (
    select *
    from {{ events_view }}
    where
        {{ bounds.is_new }}
        and {{ settings.order_by }} is not null
)
    {%- endset -%}
    {%- set new_keys -%}
new_keys as (
    select
        {{ keys }},
        min({{ settings.order_by }}) as windows_first_new,
        max({{ spark_query_catalog._sqc_window_span_end(settings) }}) as windows_last_new
    from new_events
    group by
        {{ keys }}
)
    {%- endset -%}
    {{- return([new_events, new_keys]) -}}
{% endmacro %}


{#- The stored rows of the new events' keys from `where`, with their key's
    first_new and last_new: a CTE `name` over `keys` (a CTE of keys).
    `replaced`: leave out the rows a new event replaces (span_end). -#}
{% macro _sqc_stored_rows_cte(name, settings, table, keys, where, broadcast, replaced=false) %}
    {%- set replacing = replaced and settings.span_end is not none -%}
    {%- set cte -%}
{{ name }} as (
    select{{ " /*+ broadcast(" ~ keys ~ (", replacing" if replacing) ~ ") */" if broadcast }}
        stored_events.*,
        {{ keys }}.windows_first_new,
        {{ keys }}.windows_last_new
    from {{ table.relation }} as stored_events
    inner join {{ keys }}
        on {{ spark_query_catalog._sqc_key_match("stored_events", keys, settings.key_columns) }}
    {%- if replacing %}
    left anti join new_events as replacing
        on
            {{ spark_query_catalog._sqc_replaced_match(settings) | indent(4) }}
    {%- endif %}
    where
        {{ where | join("\n        and ") }}
)
    {%- endset -%}
    {{- return(cte) -}}
{% endmacro %}


{#-
    Over the stored rows of CTE `source` (one pass of `prefix`), for
    models with ROWS frames: CTEs
      <prefix>_ranks     rows_before (1 = the last stored row before the key's
                         first new event) and rows_after (1 = the first after
                         its last), for ROWS frames: both counted in the
                         frames' own order (rows_before as the rows before
                         first_new less those up to the row), so that the
                         pass sorts once
      <prefix>_rewrites  windows_rewrite: whether the row's windows
                         change
      <prefix>_reach     per key, the ranks and times of the rewritten rows,
                         how many stored rows before first_new the pass saw,
                         and the latest date it saw
-#}
{% macro _sqc_window_flags_ctes(settings, source, prefix) %}
    {%- set t = settings.order_by -%}
    {%- set partition = "partition by " ~ settings.key_columns | join(", ") -%}
    {%- set rewrite = [spark_query_catalog._sqc_range_rewrite(settings)] -%}
    {%- if settings.rows_forward > 0 -%}
        {%- do rewrite.append("windows_rows_before <= " ~ settings.rows_forward) -%}
    {%- endif -%}
    {%- if settings.rows_back > 0 -%}
        {%- do rewrite.append("windows_rows_after <= " ~ settings.rows_back) -%}
    {%- endif -%}
    {%- set ranks -%}
{{ prefix }}_ranks as (
    select
        *,
        case
            when {{ t }} < windows_first_new
                then
                    count_if({{ t }} < windows_first_new)
                        over (
                            {{ partition }}
                        )
                    - count_if({{ t }} < windows_first_new)
                        over (
                            {{ partition }}
                            order by {{ spark_query_catalog._sqc_window_row_order(settings) }}
                            rows between unbounded preceding and current row
                        )
                    + 1
        end as windows_rows_before,
        case
            when {{ t }} > windows_last_new
                then count_if({{ t }} > windows_last_new) over (
                    {{ partition }}
                    order by {{ spark_query_catalog._sqc_window_row_order(settings) }}
                    rows between unbounded preceding and current row
                )
        end as windows_rows_after
    from {{ source }}
)
    {%- endset -%}
    {%- set rewrites -%}
{{ prefix }}_rewrites as (
    select
        *,
        coalesce(
            {{ rewrite | join("\nor ") | indent(12) }},
            false
        ) as windows_rewrite
    from {{ prefix }}_ranks
)
    {%- endset -%}
    {%- set reach_columns = [] -%}
    {%- for side in ["before", "after"] -%}
        {%- do reach_columns.append("coalesce(\n    max(case when windows_rewrite then windows_rows_" ~ side ~ " end)\n        over ("
            ~ partition ~ "),\n    0\n) as windows_rewrite_" ~ side) -%}
    {%- endfor -%}
    {%- if settings.has_range -%}
        {%- do reach_columns.append(spark_query_catalog._sqc_time_shift("least(\n    "
            ~ spark_query_catalog._sqc_range_reach(settings)[0]
            ~ ",\n    min(case when windows_rewrite then " ~ t ~ " end)\n        over (" ~ partition ~ ")\n)",
            -settings.range_back) ~ " as windows_read_from") -%}
        {%- do reach_columns.append(spark_query_catalog._sqc_time_shift("greatest(\n    "
            ~ spark_query_catalog._sqc_range_reach(settings)[1]
            ~ ",\n    max(case when windows_rewrite then " ~ t ~ " end)\n        over (" ~ partition ~ ")\n)",
            settings.range_forward) ~ " as windows_read_to") -%}
    {%- endif -%}
    {%- do reach_columns.append("count(windows_rows_before)\n    over (" ~ partition ~ ") as windows_found_before") -%}
    {%- do reach_columns.append("max(spark_query_catalog_date)\n    over (" ~ partition ~ ") as windows_latest_date") -%}
    {%- set reach -%}
{{ prefix }}_reach as (
    select
        *,
{{ spark_query_catalog._sqc_list_lines(reach_columns | map("indent", 8) | list, 8) }}
    from {{ prefix }}_rewrites
)
    {%- endset -%}
    {{- return([ranks, rewrites, reach]) -}}
{% endmacro %}


{#- Which stored rows of a `prefix` pass a run reads: those it rewrites and
    those their frames (and the new events') hold. -#}
{% macro _sqc_window_read_condition(settings) %}
    {%- set read = [
        "windows_rewrite",
        "windows_rows_before <= windows_rewrite_before + " ~ settings.rows_read_back,
        "windows_rows_after <= windows_rewrite_after + " ~ settings.rows_forward
    ] -%}
    {%- if settings.has_range -%}
        {%- do read.append(settings.order_by ~ " between windows_read_from and windows_read_to") -%}
    {%- endif -%}
    {{- return(read | join("\n        or ")) -}}
{% endmacro %}


{#- Where an event's span ends: its order_by, or the later of it and its
    span_end. -#}
{% macro _sqc_window_span_end(settings) %}
    {{- return(settings.order_by if settings.span_end is none
        else "greatest(" ~ settings.order_by ~ ", " ~ settings.span_end ~ ")") -}}
{% endmacro %}


{#- Whether a stored row (stored_events) lies in the span of a new event of
    its keys (replacing), which replaces it: with span_end, sessions that a
    merge removed, and the old versions of the sessions that stay. -#}
{% macro _sqc_replaced_match(settings) %}
    {%- set t = settings.order_by -%}
    {{- return(([spark_query_catalog._sqc_key_match("stored_events", "replacing", settings.key_columns),
        "stored_events." ~ t ~ " >= replacing." ~ t,
        "stored_events." ~ t ~ " <= replacing." ~ settings.span_end
    ]) | join("\n        and ")) -}}
{% endmacro %}
