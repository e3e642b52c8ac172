{#-
    rolling's window text, native and linear.

    Spark evaluates a bounded sliding frame (rows between 100 preceding and
    current row) by aggregating the frame again each time a row leaves it:
    rows x frame width. A frame that starts at unbounded preceding it
    evaluates in one pass. The linear forms use only such growing frames:

      sum, count, avg   prefix differences: the aggregate up to the frame's
                        end, less the aggregate up to just before its start
                        (for RANGE, `just before` is the key's smallest step
                        less: 1, 0.01 for a decimal(_, 2), a day for a date,
                        a microsecond for a timestamp)
      min, max          (rolling_select only) van Herk / Gil-Werman blocks
                        of the frame's width: a running value within each
                        block from both ends, then one of two lookups

    Every linear form has the native frame's exact result for integral and
    decimal inputs, at their types' limits too (_sqc_prefix_overflow_reason);
    floating-point sums and averages are never made linear.
-#}

{#- An aggregate rolling can make linear: {"function", "argument", "sql"}, or
    none for anything else (distinct, filter, other functions). -#}
{% macro _sqc_parse_aggregate(expression) %}
    {%- set match = modules.re.match("^\s*(sum|count|avg|mean|min|max)\s*\((.*)\)\s*$",
        expression, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- if match is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set argument = match.group(2) | trim -%}
    {%- set function = match.group(1) | lower -%}
    {#- One plain argument: no DISTINCT, no second argument, no nested call's closing paren left open. -#}
    {%- if argument == "" or modules.re.match("^distinct\s", argument, modules.re.IGNORECASE)
        or argument.count("(") != argument.count(")") or (argument == "*" and function != "count") -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({"function": "avg" if function == "mean" else function, "argument": argument}) -}}
{% endmacro %}


{#- " over (\n    partition by ...\n    order by ...\n    <frame>\n)", `margin` spaces in;
    " over ()" with none of them. -#}
{% macro _sqc_over_sql(window, frame_sql, margin) %}
    {%- set clauses = [] -%}
    {%- if window.partition_clause -%}
        {%- do clauses.append(window.partition_clause) -%}
    {%- endif -%}
    {%- if window.order_keys -%}
        {%- do clauses.append("order by " ~ window.order_keys | join(", ")) -%}
    {%- endif -%}
    {%- if frame_sql and frame_sql | length > 56 -%}
        {#- A long frame clause: its end on a line of its own. -#}
        {%- set split = frame_sql.rsplit(" and ", 1) -%}
        {%- do clauses.append(split[0] ~ "\n" ~ " " * (margin + 4) ~ "and " ~ split[1]) -%}
    {%- elif frame_sql -%}
        {%- do clauses.append(frame_sql) -%}
    {%- endif -%}
    {%- if not clauses -%}
        {{- return(" over ()") -}}
    {%- endif -%}
    {%- set inner = "\n" ~ " " * (margin + 4) -%}
    {{- return(" over (" ~ inner ~ clauses | join(inner) ~ "\n" ~ " " * margin ~ ")") -}}
{% endmacro %}


{#- `sql`, a finished statement, with each line of a frame clause that runs
    past 80 columns broken where it must be, at its own indent (sqlfluff
    wants one indent for the whole clause): before its last ` and `, then
    after `between`, then before a bound's `preceding` or `following`, and
    last after the `and`.
    _sqc_over_sql splits a long frame at the margin it is written at, but
    the forms that nest a query in subqueries indent it after writing it,
    and a frame over an interval is as long as its literals: only the whole
    statement knows how deep a frame lies. -#}
{% macro _sqc_fit_frames(sql) %}
    {#- A frame clause's line: its start, or the end that _sqc_over_sql put on a line of its own. -#}
    {%- set frame_line = "^( *)((?:rows|range|groups) between .*|and (?:unbounded|interval|\\d).* (?:preceding|following))$" -%}
    {%- set breaks = ["^(.*) (and .*)$", "^((?:rows|range|groups) between) (.*)$",
        "^(.*) ((?:preceding|following))$", "^(and) (.*)$"] -%}
    {%- set lines = [] -%}
    {%- for line in sql.split("\n") -%}
        {%- set frame = modules.re.match(frame_line, line) if line | length > 80 else none -%}
        {%- if frame is none -%}
            {%- do lines.append(line) -%}
        {%- else -%}
            {%- set indent = frame.group(1) -%}
            {%- set pieces = namespace(all=[frame.group(2)]) -%}
            {%- for pattern in breaks -%}
                {%- set broken = [] -%}
                {%- for piece in pieces.all -%}
                    {%- set split = modules.re.match(pattern, piece) if (indent ~ piece) | length > 80 else none -%}
                    {%- do broken.extend([piece] if split is none else [split.group(1), split.group(2)]) -%}
                {%- endfor -%}
                {%- set pieces.all = broken -%}
            {%- endfor -%}
            {%- for piece in pieces.all -%}
                {%- do lines.append(indent ~ piece) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}


{#- `call` (an aggregate call, as written) over the window. Two windows
    take Spark's frame whatever the aggregate, with no frame clause of their
    own (Spark refuses both):
      no order key    every row is a peer of every other (SQL's rule), so a
                      RANGE or GROUPS frame of unbounded and current-row
                      bounds spans the partition: Spark's unordered window;
      an empty frame  its start after its end: empty for every row, but for
                      a NULL key's row in RANGE, whose offsets reach its
                      NULL peers (as in PostgreSQL, DuckDB and Spark's own
                      RANGE frames). The aggregate keeps its type and its
                      value over no rows (NULL, or 0 for a count) from a
                      FILTER that lets no row (or only NULL keys) in. Not
                      `filter (where false)`: Spark folds that into a
                      literal, which its window operator then refuses
                      (INTERNAL_ERROR "Unsupported window function"). -#}
{% macro _sqc_window_call_sql(call, window, margin) %}
    {%- if not window.order_keys -%}
        {{- return(call ~ spark_query_catalog._sqc_over_sql(window, "", margin)) -}}
    {%- elif window.empty and window.frame_kind == "range" -%}
        {{- return(call ~ " filter (where " ~ window.key.sql ~ " is null)"
            ~ spark_query_catalog._sqc_over_sql(window, "range between current row and current row", margin)) -}}
    {%- elif window.empty -%}
        {{- return(call ~ " filter (where " ~ window.key.sql ~ " is null and " ~ window.key.sql ~ " is not null)"
            ~ spark_query_catalog._sqc_over_sql(dict(window, order_keys=[]), "", margin)) -}}
    {%- endif -%}
    {{- return(call ~ spark_query_catalog._sqc_over_sql(window, window.frame_sql, margin)) -}}
{% endmacro %}


{#- Whether `window` is taken as Spark's frame whatever the aggregate (an
    empty frame, or no order key: _sqc_window_call_sql). -#}
{% macro _sqc_is_plain_window(window) %}
    {{- return(not window.order_keys or window.empty) -}}
{% endmacro %}


{#- A frame bound `position` steps from the current row as SQL ('3 preceding'). -#}
{% macro _sqc_bound_sql(position, step_text) %}
    {%- if position == 0 -%}
        {{- return("current row") -}}
    {%- endif -%}
    {{- return(step_text ~ (" preceding" if position < 0 else " following")) -}}
{% endmacro %}


{#-
    The two prefix frames of a linear form, as frame clauses:
      end     `between unbounded preceding and <the frame's end>`
      before  `between unbounded preceding and <just before the frame's start>`
    `before` is none when the frame starts at unbounded preceding.
    For RANGE, `key` is the order key's type class and scale.
-#}
{% macro _sqc_prefix_frames(window, key) %}
    {%- set kind = window.frame_kind -%}
    {%- set end_sql = "unbounded following" if window.end.kind == "unbounded" else window.end.sql -%}
    {%- set frames = {"end": kind ~ " between unbounded preceding and " ~ end_sql, "before": none} -%}
    {%- set start = window.start -%}
    {%- if start.kind == "unbounded" -%}
        {{- return(frames) -}}
    {%- endif -%}
    {%- if kind == "rows" -%}
        {%- set position = (start.position | int) - 1 -%}
        {%- set before = spark_query_catalog._sqc_bound_sql(position, ([position, -position] | max) | string) -%}
    {%- elif key.kind == "timestamp" -%}
        {#- A microsecond before the frame's start. -#}
        {%- set seconds = (start.position if start.kind == "interval" else 0) - 0.000001 -%}
        {%- set before = spark_query_catalog._sqc_bound_sql(seconds,
            spark_query_catalog._sqc_seconds_interval([seconds, -seconds] | max)) -%}
    {%- elif key.kind == "date" -%}
        {#- A day before the frame's start (an interval of days is whole days). -#}
        {%- set days = ((start.position / 86400) if start.kind == "interval" else start.position) | int - 1 -%}
        {%- set before = spark_query_catalog._sqc_bound_sql(days, ([days, -days] | max) | string) -%}
    {%- else -%}
        {#- A number of key steps (10^-scale): Spark truncates an offset over an integer key. -#}
        {%- set steps = spark_query_catalog._sqc_offset_steps(start.magnitude if start.kind == "offset" else "0", key.scale) -%}
        {%- if start.position <= 0 -%}
            {%- set units = steps.whole + 1 -%}
            {%- set position = -units -%}
        {%- else -%}
            {%- set units = steps.whole if steps.remainder and key.scale > 0 else steps.whole - 1 -%}
            {%- set position = units -%}
        {%- endif -%}
        {%- set before = spark_query_catalog._sqc_bound_sql(position,
            spark_query_catalog._sqc_steps_text([units, -units] | max, key.scale)) -%}
    {%- endif -%}
    {%- do frames.update({"before": kind ~ " between unbounded preceding and " ~ before}) -%}
    {{- return(frames) -}}
{% endmacro %}


{#- A non-negative number of seconds as an interval, in words and unquoted, as
    short as it reads: interval 7 days 1 microsecond (a day-time interval, as
    the frame's own `interval '7 days'` is, so that a day is 24 hours in both). -#}
{% macro _sqc_seconds_interval(seconds) %}
    {%- set left = namespace(micros=(seconds * 1000000) | round | int) -%}
    {%- set parts = [] -%}
    {%- for unit, size in [("day", 86400000000), ("hour", 3600000000), ("minute", 60000000)] -%}
        {%- set count = left.micros // size -%}
        {%- if count > 0 -%}
            {%- do parts.append(count ~ " " ~ unit ~ ("" if count == 1 else "s")) -%}
            {%- set left.micros = left.micros % size -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set whole, micros = left.micros // 1000000, left.micros % 1000000 -%}
    {%- if whole and micros -%}
        {%- do parts.append(whole ~ "." ~ "%06d" | format(micros) ~ " seconds") -%}
    {%- elif micros -%}
        {%- do parts.append(micros ~ (" microsecond" if micros == 1 else " microseconds")) -%}
    {%- elif whole or not parts -%}
        {%- do parts.append(whole ~ (" second" if whole == 1 else " seconds")) -%}
    {%- endif -%}
    {{- return("interval " ~ parts | join(" ")) -}}
{% endmacro %}


{#- An offset's text as whole key steps of 10^-scale: {"whole", "remainder"}
    ('1.001' at scale 2: 100 steps and a remainder; '1.5' at scale 0: 1). -#}
{% macro _sqc_offset_steps(text, scale) %}
    {%- set parts = (text ~ ".").split(".") -%}
    {%- set fraction = parts[1] ~ "0" * scale -%}
    {{- return({
        "whole": (parts[0] ~ fraction[:scale]) | int,
        "remainder": fraction[scale:] | replace("0", "") != ""
    }) -}}
{% endmacro %}


{#- A number of key steps as an offset's text: 101 steps at scale 2 is '1.01'. -#}
{% macro _sqc_steps_text(steps, scale) %}
    {%- if scale == 0 -%}
        {{- return(steps | string) -}}
    {%- endif -%}
    {%- set digits = "%0*d" | format(scale + 1, steps) -%}
    {{- return(digits[:-scale] ~ "." ~ digits[-scale:]) -}}
{% endmacro %}
