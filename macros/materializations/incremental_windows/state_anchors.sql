{#-
    A state frame's anchors (each key's stored row before the rows a run
    rewrites), the questions asked of them, and the heads read from where
    each anchor's frame starts (states.sql says why).
-#}


{#-
    Per key with rows to write, from the run's events view `events_view`
    (the rows the run reads, each stored one with its state as `carried`):
      windows_anchor         u's state (none: C1 is the key's first row)
      windows_anchor_order   u's place in the order
      windows_written        how many rows C has
      windows_last_start     the latest stored start among C's stored rows
    and u's record on the axis: windows_start (u's start, or C1's place
    when there is no u), windows_rows, windows_sum_<k>, windows_count_<k>
    (0 when there is no u).
    u is the last of the rows read before the key's first new event
    (windows_before) that the run keeps: those it rewrites (a frame that
    reaches forward) are the last of them, as the rows a frame reaching
    forward shifts, or whose RANGE frames hold a new event, follow the
    others. So the anchors are one aggregate over the events, with no
    window to find the first written row.
    With `questions` (the first state frame's), each key also carries what
    the run's other questions ask of its events (every key there has rows
    to write: its new events): windows_covered and windows_halo_days (the
    ROWS question's, _sqc_window_rows_reads) and windows_written_dates (the
    dates of its rows written), so that the anchors' span answers them too.
-#}
{% macro _sqc_window_anchors_sql(settings, state, events_view, questions=false) %}
    {%- set keys = settings.key_columns | join(",\n        ") -%}
    {%- set before = "events.windows_before\n            and not events.windows_write" -%}
    {%- set record = [
        "coalesce(\n        anchors.windows_anchor.start,\n        anchors.windows_first_order\n    ) as windows_start",
        "coalesce(anchors.windows_anchor.rows, 0) as windows_rows"
    ] -%}
    {%- for value in state["values"] -%}
        {%- if value.summed -%}
            {%- do record.append("coalesce(anchors.windows_anchor.sum_" ~ value.field ~ ", 0) as windows_sum_" ~ value.field) -%}
        {%- endif -%}
        {%- do record.append("coalesce(anchors.windows_anchor.count_" ~ value.field ~ ", 0) as windows_count_" ~ value.field) -%}
    {%- endfor -%}
    {%- set asked = [] -%}
    {%- if questions -%}
        {%- set asked = spark_query_catalog._sqc_window_key_reads("events.") + [
            "collect_set(cast(to_date(events.windows_order.at) as string)) filter (\n    where events.windows_write\n) as windows_written_dates"
        ] -%}
    {%- endif -%}
with windows_events as (
    select
        {{ keys }},
        windows_write,
        windows_before,
        {{ state.carried }},
        {%- if questions %}
        windows_covered,
        windows_halo_days,
        {%- endif %}
        {{ spark_query_catalog._sqc_window_order_sql(settings) }} as windows_order
    from {{ events_view }}
),

anchor_events as (
    select
        {{ spark_query_catalog._sqc_prefixed(settings.key_columns, "events.") | join(",\n        ") }},
        max_by(events.{{ state.carried }}, events.windows_order) filter (
            where {{ before }}
        ) as windows_anchor,
        max(events.windows_order) filter (
            where {{ before }}
        ) as windows_anchor_order,
        min(events.windows_order) filter (
            where events.windows_write
        ) as windows_first_order,
        count_if(events.windows_write) as windows_written,
        max(events.{{ state.carried }}.start) filter (
            where events.windows_write
        ) as windows_last_start
        {%- for item in asked %},
        {{ item | indent(8) }}
        {%- endfor %}
    from windows_events as events
    group by
        {{ spark_query_catalog._sqc_prefixed(settings.key_columns, "events.") | join(",\n        ") }}
    having count_if(events.windows_write) > 0
)

select
{{ spark_query_catalog._sqc_list_lines(spark_query_catalog._sqc_prefixed(settings.key_columns, "anchors.") + [
    "anchors.windows_anchor",
    "anchors.windows_anchor_order",
    "anchors.windows_written",
    "anchors.windows_last_start"
] + (["anchors.windows_covered", "anchors.windows_halo_days", "anchors.windows_written_dates"]
    if questions else []) + record, 4) }}
from anchor_events as anchors
{%- endmacro %}


{#- How many heads an anchored key needs (over the anchors, as `anchors`):
    least(r, |C| - d + 1), as below. -#}
{% macro _sqc_window_heads_needed_sql(state) %}
    {{- return("least(\n    anchors.windows_anchor.rows,\n    anchors.windows_written - " ~ (state.width + 1)
        ~ " + anchors.windows_anchor.rows + 1\n)") -}}
{% endmacro %}


{#- The dates the heads are read from: where the anchors' frames start,
    to two days past the last stored start of the rows rewritten
    (to_date), and the last anchor's date (last_date), where a short key's
    heads are read to; and the most rows a key writes (most_written, over
    every key: a key without an anchor too). With `questions` (anchors that
    carry them: _sqc_window_anchors_sql), the answers to the ROWS question
    (short_keys, halo_days) and the dates written (written_dates, as JSON). -#}
{% macro _sqc_window_anchor_span_sql(anchors_view, questions=false) %}
select
    cast(
        min(to_date(anchors.windows_anchor.start.at)) filter (
            where anchors.windows_anchor is not null
        ) as string
    ) as from_date,
    cast(
        max(
            to_date(
                coalesce(
                    anchors.windows_last_start,
                    anchors.windows_anchor.start
                ).at
            )
        ) filter (
            where anchors.windows_anchor is not null
        ) + 2 as string
    ) as to_date,
    cast(
        max(to_date(anchors.windows_anchor_order.at)) filter (
            where anchors.windows_anchor is not null
        ) as string
    ) as last_date,
    max(anchors.windows_written) as most_written
    {%- if questions %},
    {{ spark_query_catalog._sqc_window_key_read_answers("anchors.") | join(",\n    ") }},
    to_json(
        array_sort(
            array_distinct(
                flatten(collect_list(anchors.windows_written_dates))
            )
        )
    ) as written_dates
    {%- endif %}
from {{ anchors_view }} as anchors
{%- endmacro %}


{#- CTE windows_stored: `items` of the stored rows from `from_date` to
    `to_date` (where a state frame's heads are read). -#}
{% macro _sqc_window_stored_cte(table, items, from_date, to_date) %}
    {%- set cte -%}
windows_stored as (
    select
{{ spark_query_catalog._sqc_list_lines(items, 8) }}
    from {{ table.relation }}
    where
        spark_query_catalog_date >= date '{{ from_date }}'
        and spark_query_catalog_date <= date '{{ to_date }}'
)
    {%- endset -%}
    {{- return(cte) -}}
{% endmacro %}


{#- How many anchored keys needing heads have fewer stored rows from their
    anchor's start on, from `from_date` to `to_date`, than they need: one
    count per key, where the heads themselves are ranked in one window (a
    key that has as many has them all). -#}
{% macro _sqc_window_short_keys_sql(settings, state, table, anchors_view, from_date, to_date, broadcast) %}
    {%- set keys = spark_query_catalog._sqc_prefixed(settings.key_columns, "windows_stored.") | join(",\n        ") -%}
with {{ spark_query_catalog._sqc_window_stored_cte(table, settings.key_columns
    + [spark_query_catalog._sqc_window_order_sql(settings) ~ " as windows_order"], from_date, to_date) }},

found_heads as (
    select{{ " /*+ broadcast(anchors) */" if broadcast }}
        {{ keys }},
        count(*) as windows_found
    from windows_stored
    inner join {{ anchors_view }} as anchors
        on {{ spark_query_catalog._sqc_key_match("windows_stored", "anchors", settings.key_columns) }}
    where windows_stored.windows_order >= anchors.windows_anchor.start
    group by
        {{ keys }}
)

select count(*) as short_keys
from {{ anchors_view }} as anchors
left join found_heads
    on {{ spark_query_catalog._sqc_key_match("anchors", "found_heads", settings.key_columns) }}
where
    anchors.windows_anchor is not null
    and coalesce(found_heads.windows_found, 0)
    < {{ spark_query_catalog._sqc_window_heads_needed_sql(state) | indent(4) }}
{%- endmacro %}


{#- The heads of each anchored key: its stored rows from u's start on, the
    first least(r, |C| - d + 1) of them (Hj, j from 0), with d (windows_skip),
    read from the dates `from_date` to `to_date` only. -#}
{% macro _sqc_window_heads_sql(settings, state, table, anchors_view, from_date, to_date, broadcast) %}
    {%- set width = state.width + 1 -%}
    {%- set stored_items = settings.key_columns + spark_query_catalog._sqc_window_value_items(state)
        + [spark_query_catalog._sqc_window_order_sql(settings) ~ " as windows_order"] -%}
    {%- set head_items = [
        "windows_stored.*",
        width ~ " - anchors.windows_anchor.rows as windows_skip",
        spark_query_catalog._sqc_window_heads_needed_sql(state) ~ " as windows_needed",
        "row_number() over (\n    partition by " ~ spark_query_catalog._sqc_prefixed(settings.key_columns, "windows_stored.") | join(", ")
            ~ "\n    order by windows_stored.windows_order\n) - 1 as windows_head"
    ] -%}
with {{ spark_query_catalog._sqc_window_stored_cte(table, stored_items, from_date, to_date) }},

windows_heads as (
    select{{ " /*+ broadcast(anchors) */" if broadcast }}
{{ spark_query_catalog._sqc_list_lines(head_items | map("indent", 8) | list, 8) }}
    from windows_stored
    inner join {{ anchors_view }} as anchors
        on {{ spark_query_catalog._sqc_key_match("windows_stored", "anchors", settings.key_columns) }}
    where windows_stored.windows_order >= anchors.windows_anchor.start
)

select *
from windows_heads
where windows_head < windows_needed
{%- endmacro %}
