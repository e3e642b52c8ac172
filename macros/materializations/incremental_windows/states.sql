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


{#- The settings of a run: `settings` (config.sql) with its state frames
    ({column, carried, width, values, outputs, window} as each frame's
    state, none for the others), settings.states, and
    settings.rows_read_back (how many stored rows before the rewritten ones
    a run reads: the widest other ROWS frame's reach, and 1 for a state
    frame's anchor). A new dict: the config's is left as it was.
    `columns`: the events' columns with their types. -#}
{% macro _sqc_window_states(settings, columns, events_sql) %}
    {%- set frames = [] -%}
    {%- set states = [] -%}
    {%- set read_back = [0] -%}
    {%- for frame in settings.frames -%}
        {%- set state = spark_query_catalog._sqc_window_state(settings, frame, loop.index, columns, events_sql) -%}
        {%- do frames.append(dict(frame, state=state)) -%}
        {%- if state is not none -%}
            {%- do states.append(state) -%}
            {%- do read_back.append(1) -%}
        {%- elif frame.frame == "rows" -%}
            {%- do read_back.append(frame.back) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(dict(settings, frames=frames, states=states, rows_read_back=read_back | max)) -}}
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
