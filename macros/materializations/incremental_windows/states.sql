{#-
    Stored frame states: how an incremental run keeps a ROWS frame of
    sum, count and avg without reading the rows the frame reaches.

    A ROWS frame of w + 1 rows ending at the row (preceding=w) is a state
    frame when each of its aggregates is a sum, count or avg with an exact
    linear form (integral and decimal values: _sqc_rolling_plan's `exact`),
    and it holds 100 rows or more (the config's frame_states: 'auto'; true:
    any width; false: no state frames).
    Every stored row then keeps its frame's state in one column,
    spark_query_catalog_rows_<n> (n: the frame's place in the config):
      rows      how many rows the frame holds (w + 1, fewer near the start)
      start     the order (time, then event key) of the frame's first row
      sum_<k>,
      count_<k> the exact total and the count of the non-NULL values of the
                frame's k-th argument

    A run rewrites the rows C1, C2, ... (written, in order) that follow a
    stored row u (the anchor; none when C1 is the key's first row). Row Ci's
    frame is u's frame, plus C1..Ci, less the rows that left it since. The
    rows that leave are u's frame's first rows (the heads: H0, H1, ... from
    u's start, as many as C has rows) and then C's own: with u's frame
    holding r rows and d = w + 1 - r, Ci's frame is
        u's state + C1 + ... + Ci - (H0 + ... + H(i - d - 1)) - (C1 + ... + C(i - w - 1))
    (a term with no rows is 0; when i > w every head has left and the
    heads' total is u's state). So a run reads u's state, the heads (a few
    rows per key, from u's start on) and C: never the w rows a frame
    reaches. All of it is one running sum over records on an axis, per key:
    u's state at 0, Ci entering at i and leaving at i + w + 1, Hj leaving
    at j + d + 1; the first row of Ci's frame is the last start candidate
    up to i (Hj at j + d, Ci at i + w; before any, u's start, or C1).

    Any other frame (min, max, distinct counts, floating point, frames
    ending after or before the row) reads the rows it reaches, as before.
-#}

{#- Marks the model's state frames ({column, carried, width, values,
    outputs, window} as frame.state) and sets settings.states and
    settings.rows_read_back (how many stored rows before the rewritten ones
    a run reads: the widest other ROWS frame's reach, and 1 for a state
    frame's anchor). `columns`: the events' columns with their types. -#}
{% macro _sqc_window_states(settings, columns, events_sql) %}
    {%- set states = [] -%}
    {%- set read_back = [0] -%}
    {%- for frame in settings.frames -%}
        {%- set state = spark_query_catalog._sqc_window_state(settings, frame, loop.index, columns, events_sql) -%}
        {%- do frame.update({"state": state}) -%}
        {%- if state is not none -%}
            {%- do states.append(state) -%}
            {%- do read_back.append(1) -%}
        {%- elif frame.frame == "rows" -%}
            {%- do read_back.append(frame.back) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do settings.update({"states": states, "rows_read_back": read_back | max}) -%}
{% endmacro %}


{#- The state of frame number `index`, or none when it is not a state frame. -#}
{% macro _sqc_window_state(settings, frame, index, columns, events_sql) %}
    {%- set name = "incremental_windows" -%}
    {%- if frame.frame != "rows" or frame.method == "native" or settings.frame_states == false -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set window = spark_query_catalog._sqc_rolling_window(name, "count(*)", frame.order_by, settings.key_columns,
        "rows", frame.preceding, frame.following, none, frame.method) -%}
    {%- if window.start.kind != "offset" or window.end.kind != "current" -%}
        {{- return(none) -}}
    {%- endif -%}
    {#- 'auto': a frame of fewer rows reads them for less than a state's
        own statements cost (a run's fixed cost grows by about a second a
        state frame on small data). -#}
    {%- if settings.frame_states == "auto" and 1 - window.start.position < 100 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- do window.update({"columns": columns}) -%}
    {%- set values = [] -%}
    {%- set outputs = [] -%}
    {%- for alias, expression in frame.aggregates | dictsort -%}
        {%- set aggregate = spark_query_catalog._sqc_parse_aggregate(expression) -%}
        {%- if aggregate is none or aggregate.function not in ["sum", "count", "avg"] -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- set plan = spark_query_catalog._sqc_rolling_plan(window, aggregate, "(\n" ~ events_sql ~ "\n) as windows_events",
            name, helpers=true) -%}
        {%- if not plan.exact or plan.guard is not none -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- set value = none -%}
        {%- if aggregate.argument != "*" -%}
            {%- set known = values | selectattr("argument", "equalto", aggregate.argument) | list -%}
            {%- if known -%}
                {%- set value = known[0] -%}
            {%- else -%}
                {%- set value = {"argument": aggregate.argument, "field": values | length + 1, "summed": false,
                    "type": plan.argument_type} -%}
                {%- do values.append(value) -%}
            {%- endif -%}
            {%- if aggregate.function != "count" -%}
                {%- do value.update({"summed": true, "type": plan.argument_type}) -%}
            {%- endif -%}
        {%- endif -%}
        {%- do outputs.append({"alias": alias, "function": aggregate.function, "value": value}) -%}
    {%- endfor -%}
    {{- return({
        "column": "spark_query_catalog_rows_" ~ index,
        "carried": "windows_state_" ~ index,
        "width": (-window.start.position) | int,
        "values": values,
        "outputs": outputs,
        "window": window
    }) -}}
{% endmacro %}


{#- The stored type of a value's exact frame total: bigint for integers up
    to int, decimal(30, 0) for bigint (a frame's total is under 2^94), and
    decimal(p + 10, s) for decimal(p, s) (Spark's own sum type). -#}
{% macro _sqc_window_state_sum_type(argument_type) %}
    {%- set name = (argument_type or "") | trim | lower -%}
    {%- set decimal = spark_query_catalog._sqc_decimal_parts(name) -%}
    {%- if decimal is not none -%}
        {{- return("decimal(" ~ ([decimal[0] + 10, 38] | min) ~ ", " ~ decimal[1] ~ ")") -}}
    {%- elif name in ["bigint", "long"] -%}
        {{- return("decimal(30, 0)") -}}
    {%- endif -%}
    {{- return("bigint") -}}
{% endmacro %}


{#- named_struct('at', <time>, 'key_1', <event key>, ...) of `prefix`'s
    columns: a row's place in a ROWS frame's order. -#}
{% macro _sqc_window_order_sql(settings, prefix="") %}
    {%- set fields = ["'at', " ~ prefix ~ settings.order_by] -%}
    {%- for column in settings.event_keys -%}
        {%- do fields.append("'key_" ~ loop.index ~ "', " ~ prefix ~ column) -%}
    {%- endfor -%}
    {{- return("named_struct(" ~ fields | join(", ") ~ ")") -}}
{% endmacro %}


{#- A state column's value, every field cast to its stored type, from the
    SQL of its parts (`sums`, `counts`: one per value). -#}
{% macro _sqc_window_state_struct_sql(state, rows, start, sums, counts) %}
    {%- set fields = ["'rows', " ~ spark_query_catalog._sqc_cast_sql(rows, "bigint"), "'start', " ~ start] -%}
    {%- for value in state["values"] -%}
        {%- if value.summed -%}
            {%- do fields.append("'sum_" ~ value.field ~ "', " ~ spark_query_catalog._sqc_cast_sql(sums[loop.index0],
                spark_query_catalog._sqc_window_state_sum_type(value.type))) -%}
        {%- endif -%}
        {%- do fields.append("'count_" ~ value.field ~ "', " ~ spark_query_catalog._sqc_cast_sql(counts[loop.index0], "bigint")) -%}
    {%- endfor -%}
    {{- return("named_struct(\n" ~ spark_query_catalog._sqc_list_lines(fields | map("indent", 4) | list, 4) ~ "\n)") -}}
{% endmacro %}


{#- cast(`sql` as `type`), a multi-line `sql` on lines of its own. -#}
{% macro _sqc_cast_sql(sql, type) %}
    {%- if "\n" not in sql and (sql ~ type) | length < 40 -%}
        {{- return("cast(" ~ sql ~ " as " ~ type ~ ")") -}}
    {%- endif -%}
    {{- return("cast(\n    " ~ spark_query_catalog._sqc_indented(sql, 4) ~ "\n    as " ~ type ~ "\n)") -}}
{% endmacro %}


{#- The window columns of a state frame from its frame's state fields
    (`fields`: SQL naming the struct or the columns holding them, e.g.
    "windows_frames."), as rolling_select gives them. -#}
{% macro _sqc_window_state_outputs(state, prefix) %}
    {%- set items = [] -%}
    {%- for output in state.outputs -%}
        {%- if output.value is none -%}
            {%- set sql = prefix ~ "windows_rows" -%}
        {%- else -%}
            {%- set counts = prefix ~ "windows_count_" ~ output.value.field -%}
            {%- set sql = counts -%}
            {%- if output.function != "count" -%}
                {%- set value = spark_query_catalog._sqc_linear_value_sql(output.function, output.value.type,
                    prefix ~ "windows_sum_" ~ output.value.field, counts, state.window) -%}
                {%- set sql = "case\n    when " ~ counts ~ " > 0\n        then "
                    ~ spark_query_catalog._sqc_indented(value, 8) ~ "\nend" -%}
            {%- endif -%}
        {%- endif -%}
        {%- do items.append(spark_query_catalog._sqc_select_item(sql, spark_query_catalog._sqc_quote(output.alias))) -%}
    {%- endfor -%}
    {{- return(items) -}}
{% endmacro %}


{#- A full refresh's stage for a state frame: `query` (the frame's
    rolling_select) with the frame's state column, its parts as windows in
    the ROWS frames' order (running totals to the row and to just before
    the frame, the row's place, its frame's first row). -#}
{% macro _sqc_window_state_full_sql(settings, state, query) %}
    {%- set window = state.window -%}
    {%- set frames = spark_query_catalog._sqc_prefix_frames(window, window.key) -%}
    {%- set order = spark_query_catalog._sqc_window_order_sql(settings) -%}
    {%- set parts = [
        "row_number()" ~ spark_query_catalog._sqc_over_sql(window, "", 0) ~ " as windows_position",
        "lag(" ~ order ~ ", " ~ state.width ~ ")" ~ spark_query_catalog._sqc_over_sql(window, "", 0) ~ " as windows_lag_start",
        "first(" ~ order ~ ")" ~ spark_query_catalog._sqc_over_sql(window, frames.end, 0) ~ " as windows_first_start"
    ] -%}
    {%- set sums = [] -%}
    {%- set counts = [] -%}
    {%- set helpers = ["windows_position", "windows_lag_start", "windows_first_start"] -%}
    {%- for value in state["values"] -%}
        {%- set kinds = (["sum"] if value.summed else []) + ["count"] -%}
        {%- for kind in kinds -%}
            {%- set argument = spark_query_catalog._sqc_linear_summand(value.argument, value.type) if kind == "sum" else value.argument -%}
            {%- for side in ["through", "before"] -%}
                {%- set name = "windows_" ~ kind ~ "_" ~ side ~ "_" ~ value.field -%}
                {%- do parts.append(spark_query_catalog._sqc_prefix_call(kind, argument, window,
                    frames.end if side == "through" else frames.before) ~ " as " ~ name) -%}
                {%- do helpers.append(name) -%}
            {%- endfor -%}
            {%- set through, before = "windows_" ~ kind ~ "_through_" ~ value.field, "windows_" ~ kind ~ "_before_" ~ value.field -%}
            {#- A frame of NULLs only totals 0, as a run's records do. -#}
            {%- do (sums if kind == "sum" else counts).append(
                "coalesce(" ~ through ~ ", 0)\n- coalesce(" ~ before ~ ", 0)" if kind == "sum" else through ~ " - " ~ before) -%}
        {%- endfor -%}
        {%- if not value.summed -%}
            {%- do sums.append(none) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set column = spark_query_catalog._sqc_window_state_struct_sql(state,
        "least(" ~ (state.width + 1) ~ ", windows_position)",
        "coalesce(windows_lag_start, windows_first_start)", sums, counts) -%}
    {{- return("select\n    * except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    ),\n    "
        ~ spark_query_catalog._sqc_indented(column, 4) ~ " as " ~ state.column ~ "\nfrom (\n    select\n"
        ~ spark_query_catalog._sqc_list_lines(["*"] + parts | map("indent", 8) | list, 8)
        ~ "\n    from (\n" ~ query | indent(8, first=true) ~ "\n    ) as windows_frame\n) as windows_parts") -}}
{% endmacro %}


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
    window to find the first written row (0.5.3).
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


{#- `<argument> as windows_value_<k>` for each value, plain columns first. -#}
{% macro _sqc_window_value_items(state) %}
    {%- set plain = [] -%}
    {%- set computed = [] -%}
    {%- for value in state["values"] -%}
        {%- set item = value.argument ~ " as windows_value_" ~ value.field -%}
        {%- do (plain if spark_query_catalog._sqc_is_qualified_name(value.argument) else computed).append(item) -%}
    {%- endfor -%}
    {{- return(plain + computed) -}}
{% endmacro %}


{#- `columns`, each with `prefix` before it. -#}
{% macro _sqc_prefixed(columns, prefix) %}
    {%- set items = [] -%}
    {%- for column in columns -%}
        {%- do items.append(prefix ~ column) -%}
    {%- endfor -%}
    {{- return(items) -}}
{% endmacro %}


{#- The records of the axis (see the top) that each row of `source` gives:
    its key columns, then per record ({axis, row, order, start, rows, sums,
    counts}, and `written`: the written row's other columns, where the
    results carry them) axis, row, order, written, start, rows and each
    value's sum and count.
    Several records are one select that reads `source` once (inline over
    an array of them): where each record read it again, Spark computed
    `source` (a CTE or a view) once per record. -#}
{% macro _sqc_window_records_sql(settings, state, source, records) %}
    {%- set rows = [] -%}
    {%- for record in records -%}
        {%- set items = [("windows_axis", record.axis), ("windows_row", record.row), ("windows_order", record.order)] -%}
        {%- if record.written is defined -%}
            {%- do items.append(("windows_written_row", record.written)) -%}
        {%- endif -%}
        {%- do items.extend([("windows_start", record.start), ("windows_rows", record.rows)]) -%}
        {%- for value in state["values"] -%}
            {%- if value.summed -%}
                {%- do items.append(("windows_sum_" ~ value.field, record.sums[loop.index0])) -%}
            {%- endif -%}
            {%- do items.append(("windows_count_" ~ value.field, record.counts[loop.index0])) -%}
        {%- endfor -%}
        {%- do rows.append(items) -%}
    {%- endfor -%}
    {%- set select = settings.key_columns | list -%}
    {%- if rows | length == 1 -%}
        {%- for name, sql in rows[0] -%}
            {%- do select.append(spark_query_catalog._sqc_select_item(sql, name)) -%}
        {%- endfor -%}
    {%- else -%}
        {%- set structs = [] -%}
        {%- for items in rows -%}
            {%- set fields = [] -%}
            {%- for name, sql in items -%}
                {%- do fields.append("'" ~ name ~ "', " ~ sql) -%}
            {%- endfor -%}
            {%- do structs.append("named_struct(\n" ~ spark_query_catalog._sqc_list_lines(fields, 4) ~ "\n)") -%}
        {%- endfor -%}
        {%- set names = [] -%}
        {%- for name, sql in rows[0] -%}
            {%- do names.append(name) -%}
        {%- endfor -%}
        {%- do select.append("inline(\n    array(\n" ~ spark_query_catalog._sqc_list_lines(structs | map("indent", 8) | list, 8)
            ~ "\n    )\n) as (\n" ~ spark_query_catalog._sqc_list_lines(names, 4) ~ "\n)") -%}
    {%- endif -%}
    {{- return("select\n" ~ spark_query_catalog._sqc_list_lines(select | map("indent", 8) | list, 8) ~ "\n    from " ~ source) -}}
{% endmacro %}


{#- What a row adds to a frame it enters, as select items over its
    windows_value_<k> columns: each summed value's exact sum
    (windows_sum_<k>) and each value's count (windows_count_<k>). -#}
{% macro _sqc_window_moved_items(state) %}
    {%- set items = [] -%}
    {%- for value in state["values"] -%}
        {%- set column = "windows_value_" ~ value.field -%}
        {%- if value.summed -%}
            {%- do items.append("coalesce(" ~ spark_query_catalog._sqc_linear_summand(column, value.type) ~ ", 0) as windows_sum_"
                ~ value.field) -%}
        {%- endif -%}
        {%- do items.append("if(" ~ column ~ " is null, 0, 1) as windows_count_" ~ value.field) -%}
    {%- endfor -%}
    {{- return(items) -}}
{% endmacro %}


{#- An incremental run's results for a state frame over `source` (the view
    before it): per written row, its keys and order (windows_order), the
    frame's window columns and its state, from the anchors and heads views.
    Given `carried` (the names of source's other columns that the pending
    table keeps), each written row instead, whole: its keys, those columns
    (carried on its record of the axis, as one struct, windows_written_row)
    and the frame's, and windows_write, so that no join brings them back;
    as {ctes, select}, for the CTEs of the statement that reads them.
    Not `shifted` (no key writes more rows than the frame's w + 1: no
    written row leaves a written row's frame, or starts it), a written row
    has its own record alone: its leaving and its start would lie past the
    key's last row (lab, rows 1,000: 1.8M records -> 1.0M, and 0.45 s of
    a 1.9 s statement). -#}
{% macro _sqc_window_state_results_sql(settings, state, source, anchors_view, heads_view, carried=none, shifted=true) %}
    {%- set width = state.width -%}
    {%- set keys = settings.key_columns | join(", ") -%}
    {%- set order = spark_query_catalog._sqc_window_order_sql(settings) -%}
    {%- set written_items = settings.key_columns + spark_query_catalog._sqc_window_value_items(state)
        + [order ~ " as windows_order"] -%}
    {%- set written = {} -%}
    {%- if carried is not none -%}
        {%- set fields = [] -%}
        {%- for column in carried -%}
            {%- do fields.append("'" ~ spark_query_catalog._sqc_unquote(column) ~ "', " ~ column) -%}
        {%- endfor -%}
        {%- do written_items.append("named_struct(\n" ~ spark_query_catalog._sqc_list_lines(fields, 4)
            ~ "\n) as windows_written_row") -%}
        {%- do written.update({"written": "windows_written_row"}) -%}
    {%- endif -%}
    {%- do written_items.append("row_number() over (\n    partition by " ~ keys ~ "\n    order by "
        ~ ([settings.order_by] + settings.event_keys) | join(", ") ~ "\n) as windows_index") -%}
    {%- set nothing = {"written": "null"} if carried is not none else {} -%}
    {#- Each written row and each head with its values' sums and counts
        (entering the frame: the head's enter as a written row's leave). -#}
    {%- set moved_items = spark_query_catalog._sqc_window_moved_items(state) -%}
    {%- set entering = {"sums": [], "counts": []} -%}
    {%- set leaving = {"sums": [], "counts": []} -%}
    {%- set zeros = [] -%}
    {%- for value in state["values"] -%}
        {%- for kind in ["sum", "count"] -%}
            {%- do entering[kind ~ "s"].append("windows_" ~ kind ~ "_" ~ value.field) -%}
            {%- do leaving[kind ~ "s"].append("-windows_" ~ kind ~ "_" ~ value.field) -%}
        {%- endfor -%}
        {%- do zeros.append("0") -%}
    {%- endfor -%}
    {%- set records = [
        spark_query_catalog._sqc_window_records_sql(settings, state, anchors_view, [dict(nothing, axis="0", row="false",
            order="null", start="windows_start", rows="windows_rows", sums=entering.sums, counts=entering.counts)]),
        spark_query_catalog._sqc_window_records_sql(settings, state, "windows_entering", [
            dict(written, axis="windows_index", row="true", order="windows_order", start="null", rows="1",
                sums=entering.sums, counts=entering.counts)
        ] + ([
            dict(nothing, axis="windows_index + " ~ (width + 1), row="false", order="null", start="null",
                rows="-1", sums=leaving.sums, counts=leaving.counts),
            dict(nothing, axis="windows_index + " ~ width, row="false", order="null", start="windows_order",
                rows="0", sums=zeros, counts=zeros)
        ] if shifted else [])),
        spark_query_catalog._sqc_window_records_sql(settings, state, "windows_leaving", [
            dict(nothing, axis="windows_index + 1", row="false", order="null", start="null",
                rows="-1", sums=leaving.sums, counts=leaving.counts),
            dict(nothing, axis="windows_index", row="false", order="null", start="windows_order",
                rows="0", sums=zeros, counts=zeros)
        ])
    ] -%}
    {%- set over = " over (\n    partition by " ~ keys ~ "\n    order by windows_axis\n"
        ~ "    range between unbounded preceding and current row\n)" -%}
    {%- set frame_items = settings.key_columns + ["windows_axis", "windows_row", "windows_order"]
        + (["windows_written_row"] if carried is not none else [])
        + ["last(windows_start, true)" ~ over ~ " as windows_start", "sum(windows_rows)" ~ over ~ " as windows_rows"] -%}
    {%- set sums = [] -%}
    {%- set counts = [] -%}
    {%- for value in state["values"] -%}
        {%- if value.summed -%}
            {%- do frame_items.append("sum(windows_sum_" ~ value.field ~ ")" ~ over ~ " as windows_sum_" ~ value.field) -%}
        {%- endif -%}
        {%- do frame_items.append("sum(windows_count_" ~ value.field ~ ")" ~ over ~ " as windows_count_" ~ value.field) -%}
        {%- do sums.append("windows_sum_" ~ value.field) -%}
        {%- do counts.append("windows_count_" ~ value.field) -%}
    {%- endfor -%}
    {#- Carried, the select names the frames (`frames`): the written row's
        columns are a struct's fields. -#}
    {%- set prefix = "frames." if carried is not none else "" -%}
    {%- set simple = [] -%}
    {%- set computed = [] -%}
    {%- for item in spark_query_catalog._sqc_window_state_outputs(state, prefix) -%}
        {%- do (simple if item.startswith(prefix ~ "windows_rows as ") else computed).append(item) -%}
    {%- endfor -%}
    {%- set result_items = (["frames.windows_written_row.*"] + spark_query_catalog._sqc_prefixed(settings.key_columns, prefix)
        + ["true as windows_write"] if carried is not none else settings.key_columns + ["windows_order"]) + simple + computed
        + [spark_query_catalog._sqc_window_state_struct_sql(state, prefix ~ "windows_rows", prefix ~ "windows_start",
            spark_query_catalog._sqc_prefixed(sums, prefix), spark_query_catalog._sqc_prefixed(counts, prefix))
            ~ " as " ~ state.column] -%}
    {%- set ctes -%}
windows_written as (
    select
{{ spark_query_catalog._sqc_list_lines(written_items | map("indent", 8) | list, 8) }}
    from {{ source }}
    where windows_write
),

windows_entering as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + ["windows_index", "windows_order"]
    + (["windows_written_row"] if carried is not none else []) + moved_items, 8) }}
    from windows_written
),

windows_leaving as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + ["windows_order", "windows_head + windows_skip as windows_index"]
    + moved_items, 8) }}
    from {{ heads_view }}
),

windows_records as (
    {{ records | join("\n    union all\n    ") }}
),

windows_frames as (
    select
{{ spark_query_catalog._sqc_list_lines(frame_items | map("indent", 8) | list, 8) }}
    from windows_records
)
    {%- endset -%}
    {%- set select -%}
select
{{ spark_query_catalog._sqc_list_lines(result_items | map("indent", 4) | list, 4) }}
from windows_frames{{ " as frames" if carried is not none }}
where {{ prefix }}windows_row
    {%- endset -%}
    {%- if carried is not none -%}
        {{- return({"ctes": ctes, "select": select}) -}}
    {%- endif -%}
    {{- return("with " ~ ctes ~ "\n\n" ~ select) -}}
{% endmacro %}


{#- An incremental run's stage for a state frame: every row of `source`, the
    written ones with the frame's window columns and state from `results`
    (a cached view: the records above are computed once). -#}
{% macro _sqc_window_state_stage_sql(settings, state, source, results) %}
    {%- set match = [] -%}
    {%- for column in settings.key_columns -%}
        {%- do match.append("windows_source." ~ column ~ " <=> windows_results." ~ column) -%}
    {%- endfor -%}
    {%- do match.append("windows_source." ~ settings.order_by ~ " = windows_results.windows_order.at") -%}
    {%- for column in settings.event_keys -%}
        {%- do match.append("windows_source." ~ column ~ " <=> windows_results.windows_order.key_" ~ loop.index) -%}
    {%- endfor -%}
    {%- set outputs = [] -%}
    {%- for output in state.outputs -%}
        {%- do outputs.append("windows_results." ~ spark_query_catalog._sqc_quote(output.alias)) -%}
    {%- endfor -%}
select
{{ spark_query_catalog._sqc_list_lines(["windows_source.*"] + outputs + ["windows_results." ~ state.column], 4) }}
from {{ source }} as windows_source
left join {{ results }} as windows_results
    on
        {{ match | join("\n        and ") }}
{%- endmacro %}
