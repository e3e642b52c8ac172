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
    keys. ROWS frames take a leaner form of the same count
    (_sqc_linear_distinct_rows_sql): positions are row numbers, so the
    frame's non-NULL values are two running counts in the window that
    numbers the rows, and only repeats need records (at most two a row; one
    for a row out of reach of its previous occurrence). Measured on 4M rows,
    ROWS 1,000, 97 values a key: 1.15-1.3x faster than the three records.
    RANGE frames over dates, timestamps and keys of up to 32 bits take the
    lean form too (_sqc_linear_distinct_range_sql), their values counted
    over the records: RANGE 7 days, 4M rows, 1.13x faster with 97 values a
    key, 1.70x with about 10,000.
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
    {%- set present = [] -%}
    {%- for argument in arguments -%}
        {%- do present.append(argument ~ " is not null") -%}
    {%- endfor -%}
    {{- return("case\n    when " ~ present | join(" and ") ~ "\n        then struct(" ~ arguments | join(", ") ~ ")\nend") -}}
{% endmacro %}


{#- Spark's own frame: the set of the frame's values, counted. A bigint, as
    count(distinct) is. -#}
{% macro _sqc_native_distinct_sql(distinct, window, margin) %}
    {%- set value = spark_query_catalog._sqc_indented(spark_query_catalog._sqc_distinct_value_sql(distinct.arguments), margin) -%}
    {{- return("cast(size(collect_set(" ~ value ~ ")"
        ~ spark_query_catalog._sqc_over_sql(window, window.frame_sql, margin) ~ ") as bigint)") -}}
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
    {%- if not execute -%}
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
    {%- if window.method != "auto" -%}
        {{- return(window.method == "linear") -}}
    {%- elif window.frame_kind == "range" -%}
        {{- return(window.start.kind == "interval" or window.end.kind == "interval") -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_rows_width(window) >= spark_query_catalog._sqc_linear_min_width("count_distinct")) -}}
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
    {#- Whether the frame's values can be counted on the records' axis
        (_sqc_linear_distinct_range_sql): positions twice over, offsets
        included, must stay far within a bigint. Positions of dates, of
        timestamps (microseconds, years 1 to 9999: under 2^58) and of keys
        of up to 32 bits are; a bigint's or a decimal's need not be. -#}
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


{#- Every column of `relation_sql` and each distinct count ({arguments,
    alias}) over the frame of `window`, in linear form. -#}
{% macro _sqc_linear_distinct_sql(relation_sql, window, distincts) %}
    {%- set axis = spark_query_catalog._sqc_distinct_axis(window) -%}
    {%- set keys = [] -%}
    {#- The keys, the position (or the order keys, for a row number) and the
        values under names of their own first, so that every window after
        partitions by the same columns (one shuffle); the row's own columns
        travel as one struct. -#}
    {%- set source_columns = [] -%}
    {%- for key in window.partition_keys -%}
        {%- do keys.append("rolling_key_" ~ loop.index0) -%}
        {%- do source_columns.append(key ~ " as rolling_key_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- set order_keys = [] -%}
    {%- if axis.position is none -%}
        {%- for key in window.order_keys -%}
            {%- set head = spark_query_catalog._sqc_key_head(key) -%}
            {%- do source_columns.append(head ~ " as rolling_order_" ~ loop.index0) -%}
            {%- do order_keys.append("rolling_order_" ~ loop.index0 ~ key[head | length:]) -%}
        {%- endfor -%}
    {%- elif axis.counted -%}
        {#- A NULL key's rows at a position far below every key's. -#}
        {%- do source_columns.append(spark_query_catalog._sqc_indented("coalesce(\n    " ~ axis.position ~ ",\n    "
            ~ spark_query_catalog._sqc_null_key_position() ~ "\n) as rolling_position", 8)) -%}
    {%- else -%}
        {%- do source_columns.append(axis.position ~ " as rolling_position") -%}
    {%- endif -%}
    {%- for distinct in distincts -%}
        {%- do source_columns.append(spark_query_catalog._sqc_indented(
            spark_query_catalog._sqc_distinct_value_sql(distinct.arguments), 8) ~ " as rolling_" ~ loop.index0 ~ "_value") -%}
    {%- endfor -%}
    {%- do source_columns.append("struct(*) as rolling_values") -%}
    {#- Plain columns before computed ones, as a careful select lists them. -#}
    {%- set plain = [] -%}
    {%- set computed = [] -%}
    {%- for column in source_columns -%}
        {%- do (plain if modules.re.match("^[A-Za-z_][A-Za-z0-9_.`]* as ", column) else computed).append(column) -%}
    {%- endfor -%}
    {%- set source_columns = plain + computed -%}
    {%- set partition_clause = ("partition by " ~ keys | join(", ")) if keys else "" -%}
    {#- A RANGE form's first window partitions by the keys and a value: its
        rows are sent by the keys alone first, which every window after
        takes as it is (one shuffle, as the native frame's). -#}
    {%- set distribute = "\n    distribute by " ~ keys | join(", ") if keys and axis.position is not none else "" -%}
    {%- set ctes = [{"name": "rolling_source", "columns": source_columns, "from": relation_sql | indent(4) ~ distribute}] -%}
    {%- if axis.position is none -%}
        {{- return(spark_query_catalog._sqc_linear_distinct_rows_sql(ctes, window, distincts, keys, order_keys)) -}}
    {%- elif axis.counted -%}
        {{- return(spark_query_catalog._sqc_linear_distinct_range_sql(ctes, window, distincts, keys, axis)) -}}
    {%- endif -%}

    {#- Where each value last occurred, as the start of the run after which
        it no longer counts (kind 2: after the rows there). -#}
    {%- set previous_columns = ["*"] -%}
    {%- for distinct in distincts -%}
        {%- set value_window = {
            "partition_clause": "partition by " ~ (keys + ["rolling_" ~ loop.index0 ~ "_value"]) | join(", "),
            "order_keys": ["rolling_position"]
        } -%}
        {%- do previous_columns.append("lag(named_struct(\n    'position', rolling_position"
            ~ spark_query_catalog._sqc_minus_offset(axis.lo) ~ ",\n    'kind', 2\n))"
            ~ spark_query_catalog._sqc_over_sql(value_window, none, 0) ~ " as rolling_" ~ loop.index0 ~ "_previous") -%}
    {%- endfor -%}
    {%- set indented_previous = [] -%}
    {%- for column in previous_columns -%}
        {%- do indented_previous.append(spark_query_catalog._sqc_indented(column, 8)) -%}
    {%- endfor -%}
    {%- do ctes.append({"name": "rolling_previous", "from": ctes[-1].name, "columns": indented_previous}) -%}

    {#- The records of each row: itself (kind 1), then for each count its +1
        (kind 0, or 2 after its previous occurrence's run) and its -1 (kind 2). -#}
    {%- set records = [] -%}
    {%- set zeros = [] -%}
    {%- for distinct in distincts -%}
        {%- do zeros.append("'change_" ~ loop.index0 ~ "', 0") -%}
    {%- endfor -%}
    {%- do records.append("named_struct(\n    'at', " ~ spark_query_catalog._sqc_at_sql("rolling_position", 1) ~ ",\n    "
        ~ zeros | join(",\n    ") ~ ",\n    'row_values', rolling_values\n)") -%}
    {%- for distinct in distincts -%}
        {%- set index = loop.index0 -%}
        {%- set counted = "if(rolling_" ~ index ~ "_value is null, 0, 1)" -%}
        {#- From the frame's first row that holds j, but only after the run
            of j's previous occurrence (greatest() skips the NULL of a first
            occurrence). -#}
        {%- set start = "greatest(\n    " ~ spark_query_catalog._sqc_indented(spark_query_catalog._sqc_at_sql(
            "rolling_position" ~ spark_query_catalog._sqc_minus_offset(axis.hi), 0), 4)
            ~ ",\n    rolling_" ~ index ~ "_previous\n)" -%}
        {%- set stop = spark_query_catalog._sqc_at_sql("rolling_position" ~ spark_query_catalog._sqc_minus_offset(axis.lo), 2) -%}
        {%- for at, sign in [(start, ""), (stop, "-")] -%}
            {%- set changes = [] -%}
            {%- for other in distincts -%}
                {%- do changes.append("'change_" ~ loop.index0 ~ "', "
                    ~ (sign ~ counted if loop.index0 == index else "0")) -%}
            {%- endfor -%}
            {%- do records.append("named_struct(\n    'at', " ~ spark_query_catalog._sqc_indented(at, 4) ~ ",\n    "
                ~ changes | join(",\n    ") ~ ",\n    'row_values', null\n)") -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set indented_records = [] -%}
    {%- for record in records -%}
        {%- do indented_records.append(spark_query_catalog._sqc_indented(record, 12)) -%}
    {%- endfor -%}
    {%- set change_columns = [] -%}
    {%- for distinct in distincts -%}
        {%- do change_columns.append("rolling_records.change_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- do ctes.append({"name": "rolling_changes", "from": "rolling_previous\n        lateral view inline(array(\n"
        ~ spark_query_catalog._sqc_list_lines(indented_records, 12) ~ "\n        )) rolling_records",
        "columns": keys | map("replace", "rolling_key_", "rolling_previous.rolling_key_") | list + ["rolling_records.at.position", "rolling_records.at.kind"] + change_columns
            + ["rolling_records.row_values"]}) -%}

    {{- return(spark_query_catalog._sqc_distinct_counts_sql(ctes, distincts, partition_clause, ["position", "kind"],
        none, "rolling_counts.kind = 1")) -}}
{% endmacro %}


{#- The ROWS form, after rolling_source (`ctes`): the row number is the
    position, and the frame's non-NULL values are counted in the same sorted
    window that numbers the rows (two running counts: to the frame's end and
    to just before its start, `present`). From them it takes the repeats:
    row j whose value last occurred at p is a repeat in the frames that hold
    both, those of the rows from P(j) - hi to P(p) - lo (when that run is not
    empty: the two are within the frame's width). A record of +1 where the
    run starts (the row's own record when hi is 0) and of -1 after it ends;
    a running sum of them in the rows' order is each row's repeats, and its
    distinct count is present - repeats. A row whose previous occurrence is
    out of reach brings no record but its own: with many values a key,
    about one record a row, with few, two (the RANGE form brings three). -#}
{% macro _sqc_linear_distinct_rows_sql(ctes, window, distincts, keys, order_keys) %}
    {%- set axis = spark_query_catalog._sqc_distinct_axis(window) -%}
    {%- set partition_clause = ("partition by " ~ keys | join(", ")) if keys else "" -%}
    {%- set numbering_window = {"partition_clause": partition_clause, "order_keys": order_keys} -%}
    {%- set frames = spark_query_catalog._sqc_prefix_frames(window, none) -%}
    {%- set numbered = ["*", "row_number()" ~ spark_query_catalog._sqc_over_sql(numbering_window, none, 8) ~ " as rolling_position"] -%}
    {%- for distinct in distincts -%}
        {%- set value = "rolling_" ~ loop.index0 ~ "_value" -%}
        {%- do numbered.append("count(" ~ value ~ ")" ~ spark_query_catalog._sqc_over_sql(numbering_window, frames.end, 8)
            ~ " - count(" ~ value ~ ")" ~ spark_query_catalog._sqc_over_sql(numbering_window, frames.before, 8)
            ~ " as rolling_" ~ loop.index0 ~ "_present") -%}
    {%- endfor -%}
    {%- do ctes.append({"name": "rolling_rows", "from": "rolling_source", "columns": numbered}) -%}

    {#- The last row whose frame holds each value's previous occurrence. -#}
    {%- set previous_columns = ["*"] -%}
    {%- do previous_columns.extend(spark_query_catalog._sqc_previous_end_columns(distincts, keys, axis)) -%}
    {%- do ctes.append({"name": "rolling_previous", "from": "rolling_rows", "columns": previous_columns}) -%}
    {%- set repeat_columns = ["*"] -%}
    {%- for distinct in distincts -%}
        {%- set index = loop.index0 | string -%}
        {%- do repeat_columns.append(spark_query_catalog._sqc_repeat_column(index,
            "rolling_position" ~ spark_query_catalog._sqc_minus_offset(axis.hi))) -%}
    {%- endfor -%}
    {%- do ctes.append({"name": "rolling_repeats", "from": "rolling_previous", "columns": repeat_columns}) -%}

    {#- Each row's record (kind 1), and for each count its repeat's +1 (kind
        0, at the rows there; on the row's own record when hi is 0) and -1
        (kind 2: after the rows there). -#}
    {%- set hi = axis.hi | int -%}
    {%- set row_fields = ["'position', rolling_position", "'kind', 1"] -%}
    {%- for distinct in distincts -%}
        {%- do row_fields.append("'change_" ~ loop.index0 ~ "', "
            ~ (("if(rolling_" ~ loop.index0 ~ "_repeat, 1, 0)") if hi == 0 else "0")) -%}
    {%- endfor -%}
    {%- for distinct in distincts -%}
        {%- do row_fields.append("'present_" ~ loop.index0 ~ "', rolling_" ~ loop.index0 ~ "_present") -%}
    {%- endfor -%}
    {%- do row_fields.append("'row_values', rolling_values") -%}
    {%- set records = ["named_struct(\n    " ~ row_fields | join(",\n    ") ~ "\n)"] -%}
    {%- set repeats = [] -%}
    {%- for distinct in distincts -%}
        {%- do repeats.append("rolling_" ~ loop.index0 ~ "_repeat") -%}
    {%- endfor -%}
    {#- (when, position, kind, change of each count) -#}
    {%- set changes = [] -%}
    {%- if hi != 0 -%}
        {%- set starts = [] -%}
        {%- for repeat in repeats -%}
            {%- do starts.append(("if(" ~ repeat ~ ", 1, 0)") if repeats | length > 1 else "1") -%}
        {%- endfor -%}
        {%- do changes.append((repeats | join(" or "), "rolling_position" ~ spark_query_catalog._sqc_minus_offset(axis.hi), 0, starts)) -%}
    {%- endif -%}
    {%- for repeat in repeats -%}
        {%- do changes.append((repeat, "rolling_" ~ loop.index0 ~ "_previous_end", 2,
            spark_query_catalog._sqc_one_change(repeats | length, loop.index0, "-1"))) -%}
    {%- endfor -%}
    {%- for when, position, kind, values in changes -%}
        {%- set change_fields = ["'position', " ~ position, "'kind', " ~ kind] -%}
        {%- for value in values -%}
            {%- do change_fields.append("'change_" ~ loop.index0 ~ "', " ~ value) -%}
        {%- endfor -%}
        {%- for value in values -%}
            {%- do change_fields.append("'present_" ~ loop.index0 ~ "', null") -%}
        {%- endfor -%}
        {%- do change_fields.append("'row_values', null") -%}
        {%- do records.append("if(\n    " ~ when ~ ",\n    named_struct(\n        "
            ~ change_fields | join(",\n        ") ~ "\n    ),\n    null\n)") -%}
    {%- endfor -%}
    {%- set indented_records = [] -%}
    {%- for record in records -%}
        {%- do indented_records.append(spark_query_catalog._sqc_indented(record, 16)) -%}
    {%- endfor -%}
    {%- do ctes.append(spark_query_catalog._sqc_records_cte(keys, indented_records,
        ["rolling_records.position", "rolling_records.kind"]
        + spark_query_catalog._sqc_count_fields("rolling_records.", distincts, ["change", "present"]))) -%}

    {%- set presents = [] -%}
    {%- for distinct in distincts -%}
        {%- do presents.append("present_" ~ loop.index0) -%}
    {%- endfor -%}
    {{- return(spark_query_catalog._sqc_distinct_counts_sql(ctes, distincts, partition_clause, ["position", "kind"],
        presents, "rolling_counts.kind = 1")) -}}
{% endmacro %}


{#- The last two steps of every form, after rolling_changes (`ctes`): each
    count's running sum of its changes in the records' order (`order_keys`;
    over one number, a RANGE frame: records at one number count together),
    subtracted from its frame's values (`presents`, SQL over the records,
    when given), and the rows' own records (`rows_only`) with their counts. -#}
{% macro _sqc_distinct_counts_sql(ctes, distincts, partition_clause, order_keys, presents, rows_only) %}
    {%- set running_window = {"partition_clause": partition_clause, "order_keys": order_keys} -%}
    {#- Over one number (`at`), a record's changes apply to every record at it. -#}
    {%- set running_frame = ("range" if order_keys | length == 1 else "rows") ~ " between unbounded preceding and current row" -%}
    {%- set count_columns = (["kind"] if "kind" in order_keys else []) + ["row_values"] -%}
    {%- for distinct in distincts -%}
        {%- do count_columns.append((presents[loop.index0] ~ " - " if presents else "") ~ "sum(change_" ~ loop.index0 ~ ")"
            ~ spark_query_catalog._sqc_over_sql(running_window, running_frame, 8)
            ~ " as count_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- do ctes.append({"name": "rolling_counts", "from": "rolling_changes", "columns": count_columns}) -%}
    {%- set select = ["rolling_counts.row_values.*"] -%}
    {%- for distinct in distincts -%}
        {%- do select.append("rolling_counts.count_" ~ loop.index0 ~ " as " ~ distinct.alias) -%}
    {%- endfor -%}
    {{- return(spark_query_catalog._sqc_with_sql(ctes, "select\n" ~ spark_query_catalog._sqc_list_lines(select, 4)
        ~ "\nfrom rolling_counts\nwhere " ~ rows_only)) -}}
{% endmacro %}


{#-
    The RANGE form over a key whose positions are small integers (dates,
    timestamps, keys of up to 32 bits; _sqc_distinct_axis's `counted`), after
    rolling_source (`ctes`): as the ROWS form, only repeats take records, and
    the frame's non-NULL values are counted over the records themselves.
    Every record is at one number: a row and a change that applies to the
    rows at position P at 2P, a change that applies after them at 2P + 1.
    One window in that number's order runs the changes (a RANGE frame, so
    that a change counts for every row at its number: equal keys share a
    frame, as in Spark) and counts the row records' values in the frame with
    two RANGE prefix frames: the rows at positions [P + lo, P + hi] are the
    records at [at + 2 lo, at + 2 hi]. Row j whose value last occurred at p
    is a repeat in the frames of the rows from P(j) - hi to P(p) - lo: +1 at
    2 (P(j) - hi), on the row's own record when hi is 0, and -1 at
    2 (P(p) - lo) + 1. NULL order keys are at -2^60, out of every other
    row's reach, where Spark's frame for them (their own rows) is the frame
    at that position whenever the frame holds its row; when it does not
    (lo > 0 or hi < 0) they are told apart and counted over their own rows.
    A row brings one record, two when it is a repeat (three if hi is not
    0); the three-record form brings three.
-#}
{% macro _sqc_linear_distinct_range_sql(ctes, window, distincts, keys, axis) %}
    {%- set partition_clause = ("partition by " ~ keys | join(", ")) if keys else "" -%}
    {%- set lo = axis.lo | int -%}
    {%- set hi = axis.hi | int -%}
    {#- Frames that do not hold their own row: a NULL key's frame must be
        told from the empty frame at its position. -#}
    {%- set apart = lo > 0 or hi < 0 -%}

    {#- The last position whose frame holds each value's previous occurrence. -#}
    {%- set previous_columns = ["*"] -%}
    {%- if apart -%}
        {%- do previous_columns.append("rolling_position = " ~ spark_query_catalog._sqc_null_key_position()
            ~ " as rolling_null_key") -%}
    {%- endif -%}
    {%- do previous_columns.extend(spark_query_catalog._sqc_previous_end_columns(distincts, keys, axis)) -%}
    {%- do ctes.append({"name": "rolling_previous", "from": ctes[-1].name, "columns": previous_columns}) -%}

    {#- Where a repeat's +1 (shared by the counts) and each count's -1 apply;
        a NULL key's apply to its own rows alone. -#}
    {%- set start = "rolling_position" ~ spark_query_catalog._sqc_minus_offset(axis.hi) -%}
    {%- set repeat_columns = ["*"] -%}
    {%- set repeats = [] -%}
    {%- set stops = [] -%}
    {%- for distinct in distincts -%}
        {%- set index = loop.index0 | string -%}
        {%- do repeats.append("rolling_" ~ index ~ "_repeat") -%}
        {%- do repeat_columns.append(spark_query_catalog._sqc_repeat_column(index, start)) -%}
        {%- if apart -%}
            {%- do repeat_columns.append(spark_query_catalog._sqc_indented("if(\n    rolling_null_key, rolling_position, rolling_"
                ~ index ~ "_previous_end\n) as rolling_" ~ index ~ "_stop", 8)) -%}
            {%- do stops.append("rolling_" ~ index ~ "_stop") -%}
        {%- else -%}
            {%- do stops.append("rolling_" ~ index ~ "_previous_end") -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if apart -%}
        {%- do repeat_columns.append(spark_query_catalog._sqc_indented("if(\n    rolling_null_key, rolling_position, "
            ~ start ~ "\n) as rolling_start", 8)) -%}
        {%- set start = "rolling_start" -%}
    {%- elif start != "rolling_position" -%}
        {%- set start = "(" ~ start ~ ")" -%}
    {%- endif -%}
    {%- do ctes.append({"name": "rolling_repeats", "from": "rolling_previous", "columns": repeat_columns}) -%}

    {#- Each row's record, then the repeats' +1 and each count's -1. -#}
    {%- set row_changes = [] -%}
    {%- set starts = [] -%}
    {%- for repeat in repeats -%}
        {%- do row_changes.append(("if(" ~ repeat ~ ", 1, 0)") if hi == 0 else "0") -%}
        {%- do starts.append(("if(" ~ repeat ~ ", 1, 0)") if repeats | length > 1 else "1") -%}
    {%- endfor -%}
    {#- (when, at, change of each count, value of each count, null key) -#}
    {%- set records = [("", "rolling_position * 2", row_changes, "rolling_{}_value", "rolling_null_key")] -%}
    {%- if hi != 0 -%}
        {%- do records.append((repeats | join(" or "), start ~ " * 2", starts, "null", "null")) -%}
    {%- endif -%}
    {%- for repeat in repeats -%}
        {%- do records.append((repeat, stops[loop.index0] ~ " * 2 + 1",
            spark_query_catalog._sqc_one_change(repeats | length, loop.index0, "-1"), "null", "null")) -%}
    {%- endfor -%}
    {%- set indented_records = [] -%}
    {%- for when, at, changes, value, null_key in records -%}
        {%- set fields = ["'at', " ~ at] -%}
        {%- for change in changes -%}
            {%- do fields.append("'change_" ~ loop.index0 ~ "', " ~ change) -%}
        {%- endfor -%}
        {%- for change in changes -%}
            {%- do fields.append("'value_" ~ loop.index0 ~ "', " ~ value.replace("{}", loop.index0 | string)) -%}
        {%- endfor -%}
        {%- if apart -%}
            {%- do fields.append("'null_key', " ~ null_key) -%}
        {%- endif -%}
        {%- do fields.append("'row_values', " ~ ("rolling_values" if not when else "null")) -%}
        {%- set record = "named_struct(\n    " ~ fields | join(",\n    ") ~ "\n)" -%}
        {%- if when -%}
            {%- set record = "if(\n    " ~ when ~ ",\n    " ~ spark_query_catalog._sqc_indented(record, 4) ~ ",\n    null\n)" -%}
        {%- endif -%}
        {%- do indented_records.append(spark_query_catalog._sqc_indented(record, 16)) -%}
    {%- endfor -%}
    {%- set record_columns = ["rolling_records.at"]
        + spark_query_catalog._sqc_count_fields("rolling_records.", distincts, ["change", "value"]) -%}
    {%- if apart -%}
        {%- do record_columns.append("rolling_records.null_key") -%}
    {%- endif -%}
    {%- do ctes.append(spark_query_catalog._sqc_records_cte(keys, indented_records, record_columns)) -%}

    {#- Each row's frame values: the row records' values at [at + 2 lo, at + 2 hi]. -#}
    {%- set records_window = {"partition_clause": partition_clause, "order_keys": ["at"]} -%}
    {%- set to_end = "range between unbounded preceding and " ~ spark_query_catalog._sqc_bound_sql(2 * hi, (2 * hi) | abs) -%}
    {%- set before = "range between unbounded preceding and " ~ spark_query_catalog._sqc_bound_sql(2 * lo - 1, (2 * lo - 1) | abs) -%}
    {%- set presents = [] -%}
    {%- for distinct in distincts -%}
        {%- set value = "value_" ~ loop.index0 -%}
        {%- set present = "count(" ~ value ~ ")" ~ spark_query_catalog._sqc_over_sql(records_window, to_end, 0)
            ~ " - count(" ~ value ~ ")" ~ spark_query_catalog._sqc_over_sql(records_window, before, 0) -%}
        {%- if apart -%}
            {%- set own = "count(case when null_key then " ~ value ~ " end)" ~ spark_query_catalog._sqc_over_sql(
                records_window, "rows between unbounded preceding and unbounded following", 8) -%}
            {%- set present = "case\n    when null_key\n        then " ~ own ~ "\n    else "
                ~ spark_query_catalog._sqc_indented(present, 4) ~ "\nend" -%}
        {%- endif -%}
        {%- do presents.append(spark_query_catalog._sqc_indented(present, 8)) -%}
    {%- endfor -%}
    {{- return(spark_query_catalog._sqc_distinct_counts_sql(ctes, distincts, partition_clause, ["at"], presents,
        "rolling_counts.row_values is not null")) -}}
{% endmacro %}


{#- Each count's lag over its value: the last position whose frame holds
    the value's previous occurrence (`rolling_N_previous_end`). -#}
{% macro _sqc_previous_end_columns(distincts, keys, axis) %}
    {%- set columns = [] -%}
    {%- for distinct in distincts -%}
        {%- set value_window = {
            "partition_clause": "partition by " ~ (keys + ["rolling_" ~ loop.index0 ~ "_value"]) | join(", "),
            "order_keys": ["rolling_position"]
        } -%}
        {%- do columns.append("lag(rolling_position)" ~ spark_query_catalog._sqc_over_sql(value_window, none, 8)
            ~ spark_query_catalog._sqc_minus_offset(axis.lo) ~ " as rolling_" ~ loop.index0 ~ "_previous_end") -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}


{#- Whether count `index`'s value is a repeat in the frame that starts to
    hold the row at `start`: its previous occurrence's run reaches there. -#}
{% macro _sqc_repeat_column(index, start) %}
    {{- return(spark_query_catalog._sqc_indented("(\n    rolling_" ~ index ~ "_value is not null\n"
        ~ "    and rolling_" ~ index ~ "_previous_end >= " ~ start ~ "\n) as rolling_" ~ index ~ "_repeat", 8)) -}}
{% endmacro %}


{#- rolling_changes: each row of rolling_repeats as its records (`records`,
    indented; those that are NULL left out), with the keys and `columns`. -#}
{% macro _sqc_records_cte(keys, records, columns) %}
    {{- return({"name": "rolling_changes", "from": "rolling_repeats\n        lateral view inline(filter(\n"
        ~ "            array(\n" ~ spark_query_catalog._sqc_list_lines(records, 16) ~ "\n            ),\n"
        ~ "            rolling_record -> rolling_record is not null\n        )) rolling_records",
        "columns": keys | map("replace", "rolling_key_", "rolling_repeats.rolling_key_") | list
            + columns + ["rolling_records.row_values"]}) -}}
{% endmacro %}


{#- `<prefix><name>_N` for each name and each count N, name by name. -#}
{% macro _sqc_count_fields(prefix, distincts, names) %}
    {%- set fields = [] -%}
    {%- for name in names -%}
        {%- for distinct in distincts -%}
            {%- do fields.append(prefix ~ name ~ "_" ~ loop.index0) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(fields) -}}
{% endmacro %}


{#- The changes of `size` counts where only count `index` changes, by `value`. -#}
{% macro _sqc_one_change(size, index, value) %}
    {%- set changes = [] -%}
    {%- for other in range(size) -%}
        {%- do changes.append(value if other == index else "0") -%}
    {%- endfor -%}
    {{- return(changes) -}}
{% endmacro %}


{#- named_struct('position', <position>, 'kind', <kind>): where a record
    applies, on one line when it is short. -#}
{% macro _sqc_at_sql(position, kind) %}
    {%- if position | length <= 20 -%}
        {{- return("named_struct('position', " ~ position ~ ", 'kind', " ~ kind ~ ")") -}}
    {%- endif -%}
    {{- return("named_struct(\n    'position', " ~ position ~ ",\n    'kind', " ~ kind ~ "\n)") -}}
{% endmacro %}


{#- " - n" for an offset n as SQL text ("-1000", "0", "1.25"): the term
    that takes it from a position ("+ 1000" for "-1000", nothing for 0). -#}
{% macro _sqc_minus_offset(offset) %}
    {%- if offset.lstrip("-").strip("0.") == "" -%}
        {{- return("") -}}
    {%- endif -%}
    {{- return(" + " ~ offset[1:] if offset.startswith("-") else " - " ~ offset) -}}
{% endmacro %}


{#- `with <name> as (select <columns> from <from>), ... <final>`: each CTE
    a dict {name, columns, from}, laid out one column a line. -#}
{% macro _sqc_with_sql(ctes, final) %}
    {%- set blocks = [] -%}
    {%- for cte in ctes -%}
        {%- do blocks.append(cte.name ~ " as (\n    select\n" ~ spark_query_catalog._sqc_list_lines(cte.columns, 8)
            ~ "\n    from " ~ cte.from ~ "\n)") -%}
    {%- endfor -%}
    {{- return("with " ~ blocks | join(",\n\n") ~ "\n\n" ~ final) -}}
{% endmacro %}
