{#-
    count(distinct ...) over a frame. Spark refuses DISTINCT in a window
    function over a frame; its usual stand-in, size(collect_set(x)) over the
    frame, builds the set again for every row: rows x frame width.

    The linear form (rolling_select) puts every row at a position P on one
    axis: its row number for a ROWS frame; for a RANGE frame its order key
    as a number (the key itself, unix_date of a date, unix_micros of a
    timestamp; negated when the key sorts descending). The frame of row i is
    then the rows at [P(i) + lo, P(i) + hi], both ends bounded. For each row
    j whose value is not NULL, let p be where the same value last occurred
    before it (a lag over the partition and the value, in P's order). Row j
    is the first of its value in the frame of row i, and so counts for i,
    exactly when j is in that frame and p is not: for the rows i from
    P(j) - hi (inclusive), but not up to P(p) - lo (inclusive), to P(j) - lo
    (inclusive). A change of +1 where that run starts and of -1 just after
    it ends; a running sum of the changes in P's order, read at each row, is
    its distinct count. Inclusive or not is the change's kind: a change of
    kind 0 applies to the rows at its position, one of kind 2 only to those
    after it (rows are kind 1), so equal keys (ties) share a frame as in
    Spark, and the start is the greatest of two (position, kind) structs.
    Every row brings two changes (one inline() of three records). No join,
    nothing that grows with the frame's width. Several values
    (count(distinct a, b)) are one value, and a row with any of them NULL
    counts for nothing, as in Spark. A NULL order key (RANGE) has P NULL:
    every change of those rows is at NULL, sorted before the others; the
    first of each value counts +1 before them and -1 after them, later ones
    +1 and -1 at one place, so the NULL-key rows count the values of the
    NULL-key rows (Spark's frame for a NULL key) and leave the rest at 0.

    This three-record form is kept for RANGE frames over bigint and decimal
    keys, whose positions plus a frame's reach could overflow. ROWS frames
    (positions are row numbers) and RANGE frames over dates, timestamps and
    keys of up to 32 bits take the chains form instead
    (_sqc_linear_distinct_chains_sql): no records at all, a lag and a lead
    over the value and two running sums over the rows. Measured on 4M rows
    against the leaner record forms it replaced: ROWS 1,000 with 97 values
    a key 1.37x faster, RANGE 7 days 1.47x with 97 values and 1.11x with
    about 10,000.
-#}


{#- {"arguments": [...]} of `count(distinct a[, b ...])`, or none. -#}
{% macro _sqc_parse_distinct_count(expression) %}
    {%- set match = modules.re.match("^\s*count\s*\(\s*distinct\s+(.*)\)\s*$",
        expression, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- if match is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set arguments = spark_query_catalog._sqc_split_arguments(match.group(1)) -%}
    {%- if arguments is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({"arguments": arguments}) -}}
{% endmacro %}


{#- The value a distinct count counts: the argument, or a struct of them
    that is NULL when any of them is (count(distinct a, b) skips that row). -#}
{% macro _sqc_distinct_value_sql(arguments) %}
    {%- if arguments | length == 1 -%}
        {{- return(arguments[0]) -}}
    {%- endif -%}
    {{- return("case\n    when " ~ spark_query_catalog._sqc_all_present_sql(arguments) ~ "\n        then struct("
        ~ arguments | join(", ") ~ ")\nend") -}}
{% endmacro %}


{#- "a is not null and b is not null": none of `arguments` is NULL. -#}
{% macro _sqc_all_present_sql(arguments) %}
    {%- set present = [] -%}
    {%- for argument in arguments -%}
        {%- do present.append(argument ~ " is not null") -%}
    {%- endfor -%}
    {{- return(present | join(" and ")) -}}
{% endmacro %}


{#- Spark's own frame: the set of the frame's values, counted. A bigint, as
    count(distinct) is: bigint(...), where cast(... as bigint) would read to
    sqlfluff as a plain column (ST06) among the other aggregates. -#}
{% macro _sqc_native_distinct_sql(distinct, window, margin) %}
    {%- set value = spark_query_catalog._sqc_indented(spark_query_catalog._sqc_distinct_value_sql(distinct.arguments), margin) -%}
    {{- return("bigint(size(" ~ spark_query_catalog._sqc_window_call_sql("collect_set(" ~ value ~ ")", window, margin)
        ~ "))") -}}
{% endmacro %}


{#- Why `window` has no linear distinct count, or none when it has one. -#}
{% macro _sqc_distinct_linear_reason(window, helpers) %}
    {%- if not helpers -%}
        {{- return("a distinct count needs helper columns: use rolling_select") -}}
    {%- elif window.start.kind == "unbounded" or window.end.kind == "unbounded" -%}
        {{- return("a distinct count is linear over frames with both ends bounded") -}}
    {%- elif window.frame_kind == "rows" -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set key = window.key -%}
    {%- if key.kind is none -%}
        {{- return("the order key's type is not known: pass a relation whose columns can be read") -}}
    {%- elif key.kind not in ["integral", "decimal", "date", "timestamp"] -%}
        {{- return("a RANGE frame over a " ~ key.kind ~ " key: its bounds are rounded, and a frame's start"
            ~ " cannot be named from the other side") -}}
    {%- endif -%}
    {%- for bound in [window.start, window.end] if bound.kind == "interval" -%}
        {%- if bound.interval.fields == "year_month" -%}
            {{- return("months have no fixed length: a frame of months cannot be measured back from a row") -}}
        {%- elif bound.position is none -%}
            {{- return("write the interval as a duration string ('7 days') so that its length is known") -}}
        {%- endif -%}
    {%- endfor -%}
    {%- if key.kind == "timestamp" -%}
        {%- set zone = spark_query_catalog._sqc_session_time_zone() -%}
        {%- if not spark_query_catalog._sqc_fixed_offset_zone(zone) -%}
            {{- return("a timestamp key in the session time zone " ~ zone ~ ": Spark adds days to a timestamp"
                ~ " on the local clock, which daylight saving makes uneven; linear with a fixed-offset zone"
                ~ " such as UTC (spark.sql.session.timeZone)") -}}
        {%- endif -%}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}


{#- Whether a distinct count over `window` is linear: method='linear' where
    there is none is an error saying why. 'auto' takes a ROWS frame from
    _sqc_linear_min_width('count_distinct') rows wide (measured), and a
    RANGE frame with an interval bound (as for sums: how many rows a
    numeric RANGE frame holds depends on the data). -#}
{% macro _sqc_distinct_is_linear(window, macro_name, helpers) %}
    {%- if not execute or spark_query_catalog._sqc_is_plain_window(window) -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set reason = spark_query_catalog._sqc_distinct_linear_reason(window, helpers) -%}
    {%- if reason is not none -%}
        {%- if window.method == "linear" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "method", "'auto' or 'native' here: there is no"
                ~ " linear form (" ~ reason ~ ")", window.method) -}}
        {%- endif -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set width = spark_query_catalog._sqc_fewest_rows(window) -%}
    {%- if window.method != "auto" -%}
        {{- return(window.method == "linear") -}}
    {%- elif width is none -%}
        {{- return(window.start.kind == "interval" or window.end.kind == "interval") -}}
    {%- endif -%}
    {{- return(width >= spark_query_catalog._sqc_linear_min_width("count_distinct")) -}}
{% endmacro %}


{#- The session's time zone (spark.sql.session.timeZone), or none while dbt parses. -#}
{% macro _sqc_session_time_zone() %}
    {%- if not execute -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return(run_query("set spark.sql.session.timeZone").rows[0][1]) -}}
{% endmacro %}


{#- Whether a time zone is UTC or a fixed offset ('+02:00', 'GMT-5',
    'Etc/GMT+3'): no daylight saving. -#}
{% macro _sqc_fixed_offset_zone(zone) %}
    {%- set text = (zone or "") | trim -%}
    {{- return(text in ["UTC", "GMT", "UCT", "Z", "Zulu", "Universal", "Etc/UTC", "Etc/GMT", "Etc/UCT",
        "Etc/Universal", "Etc/Zulu"]
        or modules.re.match("^(?:UTC|GMT|UT|Etc/GMT)?[+-]\d{1,2}(?::?\d{2}(?::?\d{2})?)?$", text) is not none) -}}
{% endmacro %}


{#- The axis of the linear form: {position (P as SQL over the source's
    columns, none for ROWS: the row number), lo, hi (signed offsets in P's
    units, as SQL numbers)}. -#}
{% macro _sqc_distinct_axis(window) %}
    {%- if window.frame_kind == "rows" -%}
        {{- return({"position": none, "lo": window.start.position | int | string, "hi": window.end.position | int | string,
            "counted": false}) -}}
    {%- endif -%}
    {%- set key = window.key -%}
    {%- set offsets = [] -%}
    {%- for bound in [window.start, window.end] -%}
        {%- set negative = bound.position < 0 -%}
        {%- if bound.kind == "current" -%}
            {%- set magnitude = "0" -%}
        {%- elif key.kind == "timestamp" -%}
            {#- Microseconds. -#}
            {%- set magnitude = ((bound.position * 1000000) | abs | round | int) | string -%}
        {%- elif key.kind == "date" -%}
            {#- Days: a number over a date counts days; an interval is whole days or weeks. -#}
            {%- set days = (bound.position / 86400) if bound.kind == "interval" else bound.position -%}
            {%- set magnitude = (days | abs | round | int) | string -%}
        {%- elif key.kind == "integral" -%}
            {#- Spark truncates a fraction over an integer key. -#}
            {%- set magnitude = spark_query_catalog._sqc_offset_steps(bound.magnitude, 0).whole | string -%}
        {%- else -%}
            {%- set magnitude = bound.magnitude -%}
        {%- endif -%}
        {%- do offsets.append(("-" if negative and magnitude.strip("0.") != "" else "") ~ magnitude) -%}
    {%- endfor -%}
    {%- set head = key.sql -%}
    {%- if key.kind == "timestamp" -%}
        {%- set position = "unix_micros(" ~ ("cast(" ~ head ~ " as timestamp)" if window.key.ntz else head) ~ ")" -%}
    {%- elif key.kind == "date" -%}
        {%- set position = "unix_date(" ~ head ~ ")" -%}
    {%- elif key.kind == "integral" -%}
        {%- set position = "cast(" ~ head ~ " as bigint)" -%}
    {%- else -%}
        {%- set position = head -%}
    {%- endif -%}
    {%- if modules.re.search("\sdesc(\s+nulls\s+(first|last))?$", window.order_keys[0] | lower) -%}
        {%- set position = "-" ~ position -%}
    {%- endif -%}
    {#- Whether the chains form applies (`counted`,
        _sqc_linear_distinct_chains_sql): a position plus or less the
        frame's width, and the NULL key's position (-2^60) less it, must
        stay within a bigint. Positions of dates, of timestamps
        (microseconds, years 1 to 9999: under 2^58) and of keys of up to 32
        bits do, with offsets of up to 2^58; a bigint's or a decimal's need
        not. -#}
    {%- set narrow = key.kind in ["date", "timestamp"]
        or key.type in ["tinyint", "byte", "smallint", "short", "int", "integer"] -%}
    {%- set near = (offsets[0] | int | abs) <= 2 ** 58 and (offsets[1] | int | abs) <= 2 ** 58 -%}
    {{- return({"position": position, "lo": offsets[0], "hi": offsets[1], "counted": narrow and near}) -}}
{% endmacro %}


{#- The position of a NULL order key's rows in the counted RANGE form:
    -2^60, below every key's position less any offset. -#}
{% macro _sqc_null_key_position() %}
    {{- return("-1152921504606846976") -}}
{% endmacro %}
