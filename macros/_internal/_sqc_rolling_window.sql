{#- rolling's arguments as a window, and the choice between native and linear. -#}


{% macro _sqc_rolling_methods() %}
    {{- return(["auto", "native", "linear"]) -}}
{% endmacro %}


{#- Frames at least this many rows wide are linear under method='auto'
    (measured in `make bench`: the prefix form is faster from about 8 rows,
    van Herk blocks for min and max from about 64). A sum or avg of
    decimals adds through java.math.BigDecimal, slower than the longs of
    integers: one decimal(18, 2) sum on 2M rows, median of 6 and of 8, was
    1.14x slower linear at 8 rows (1.24x in CPU time) and 1.09x faster at
    11, so it is linear from 16 rows. count(distinct)'s
    chains form costs the same at every width, the set's grows with it: on
    4M rows, 1,000 keys, median of 3, one process, the chains 3.22 s with
    97 values a key and 4.25 s with about 10,000, the set 2.55 s and 3.27 s
    over 17 rows, 3.74 s and 4.84 s over 33, 4.88 s and 6.48 s over 49:
    they meet near 25 rows. -#}
{% macro _sqc_linear_min_width(function, argument_type=none) %}
    {%- if function == "count_distinct" -%}
        {{- return(32) -}}
    {%- elif function in ["sum", "avg"] and spark_query_catalog._sqc_type_class(argument_type) == "decimal" -%}
        {{- return(16) -}}
    {%- endif -%}
    {{- return(64 if function in ["min", "max"] else 8) -}}
{% endmacro %}


{#- The window of rolling or rolling_select, every argument checked:
    {partition_keys, partition_clause, order_keys (none: every row a peer),
     frame_kind, start, end, frame_sql, empty (the frame starts after it
     ends), columns, key (the RANGE order key's class, scale, sql), method} -#}
{% macro _sqc_rolling_window(macro_name, expression, order_by, partition_by, frame, preceding, following, relation, method) %}
    {%- if expression is not string or expression | trim == "" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "expression", "a SQL aggregate or window function, e.g. 'sum(amount)'", expression) -}}
    {%- endif -%}
    {%- set order_names = spark_query_catalog._sqc_string_list(order_by, macro_name, "order_by") -%}
    {%- set partition_names = spark_query_catalog._sqc_string_list(partition_by, macro_name, "partition_by") -%}
    {%- set frame_kind = frame | lower if frame is string else frame -%}
    {#- A GROUPS frame needs its rows' peer groups numbered first: a query
        of its own (rolling_select), not an expression. -#}
    {%- set frame_kinds = ["rows", "range", "groups"] if macro_name == "rolling_select" else ["rows", "range"] -%}
    {%- if frame_kind not in frame_kinds -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "frame", "'" ~ frame_kinds[:-1] | join("', '") ~ "' or '"
            ~ frame_kinds[-1] ~ "'" ~ (" (a GROUPS frame numbers the rows' peer groups first, which takes a query of"
            ~ " its own: use rolling_select)" if frame_kind == "groups" and macro_name == "rolling" else ""), frame) -}}
    {%- endif -%}
    {%- if method not in spark_query_catalog._sqc_rolling_methods() -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "method", "one of 'auto', 'native', 'linear'", method) -}}
    {%- endif -%}
    {%- if relation is not none -%}
        {%- do spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- endif -%}
    {%- set columns = spark_query_catalog._sqc_columns(relation) if relation is not none else none -%}

    {%- set order_keys = [] -%}
    {%- for name in order_names -%}
        {%- do order_keys.append(spark_query_catalog._sqc_key_sql(name, columns)) -%}
    {%- endfor -%}
    {%- set partition_keys = [] -%}
    {%- for name in partition_names -%}
        {%- do partition_keys.append(spark_query_catalog._sqc_key_sql(name, columns)) -%}
    {%- endfor -%}

    {%- set start = spark_query_catalog._sqc_frame_bound(preceding, "preceding", frame_kind, macro_name) -%}
    {%- set end = spark_query_catalog._sqc_frame_bound(following, "following", frame_kind, macro_name) -%}
    {%- if frame_kind == "range" and order_keys | length > 1 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "order_by",
            "a single order key with frame='range' (a RANGE frame measures distance on one key)", order_by) -}}
    {%- endif -%}
    {%- if not order_keys -%}
        {%- do spark_query_catalog._sqc_check_unordered_frame(start, end, frame_kind, order_by, macro_name) -%}
    {%- endif -%}
    {%- do spark_query_catalog._sqc_check_frame_types(start, end, preceding, following, macro_name) -%}
    {%- set key = {"kind": none, "type": none, "scale": 0, "ntz": false,
        "sql": spark_query_catalog._sqc_key_head(order_keys[0]) if order_keys else none} -%}
    {%- if frame_kind == "range" and order_keys -%}
        {%- set key_type = spark_query_catalog._sqc_key_type(order_keys[0], columns) -%}
        {%- set offsets = [start, end] | selectattr("kind", "in", ["offset", "interval"]) | list -%}
        {%- if offsets | length > 0 -%}
            {%- do spark_query_catalog._sqc_check_range_key(offsets, order_names[0], key_type, macro_name) -%}
        {%- endif -%}
        {%- set decimal = spark_query_catalog._sqc_decimal_parts(key_type) -%}
        {%- set type_name = (key_type or "") | lower | trim -%}
        {%- do key.update({
            "kind": spark_query_catalog._sqc_type_class(key_type),
            "type": type_name or none,
            "scale": decimal[1] if decimal is not none else 0,
            "ntz": type_name == "timestamp_ntz"
        }) -%}
    {%- endif -%}
    {{- return({
        "partition_keys": partition_keys,
        "partition_clause": spark_query_catalog._sqc_partition_clause(partition_keys, macro_name),
        "order_keys": order_keys,
        "frame_kind": frame_kind,
        "start": start,
        "end": end,
        "frame_sql": frame_kind ~ " between " ~ start.sql ~ " and " ~ end.sql,
        "empty": spark_query_catalog._sqc_frame_is_empty(start, end),
        "columns": columns,
        "key": key,
        "method": method
    }) -}}
{% endmacro %}


{#-
    Whether the window's aggregate is computed in its linear form:
    {"linear": bool, "exact": whether it has an exact linear form, wide
    enough to pay or not, "argument_type": type or none, "guard": the
    run-time error the linear form raises (_sqc_int_avg_guard) or none}.
    method='linear' where there is none is an error saying why; 'auto' takes
    it where it is exact and wide enough to be faster. `helpers` says whether helper columns can
    be added (rolling_select), which min and max need.
-#}
{% macro _sqc_rolling_plan(window, aggregate, relation, macro_name, helpers=false) %}
    {%- set start = window.start -%}
    {%- set end = window.end -%}
    {%- set result = {"linear": false, "exact": false, "argument_type": none, "guard": none} -%}
    {#- Frames Spark already evaluates in one pass: from unbounded preceding,
        the whole partition, or none (an empty frame). While dbt parses,
        types are not known yet: whether there is a linear form is decided
        when the model compiles. -#}
    {%- if start.kind == "unbounded" or not execute or spark_query_catalog._sqc_is_plain_window(window) -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- set reason = none -%}
    {%- if aggregate is none -%}
        {%- set reason = "only sum, count, avg, min and max of one argument have a linear form" -%}
    {%- elif aggregate.function in ["min", "max"] -%}
        {%- if not helpers -%}
            {%- set reason = "min and max need helper columns: use rolling_select" -%}
        {%- elif window.frame_kind != "rows" or end.kind == "unbounded" -%}
            {%- set reason = "min and max are linear over ROWS frames of a fixed width only" -%}
        {%- endif -%}
    {%- elif aggregate.function in ["sum", "avg"] -%}
        {%- set argument_type = spark_query_catalog._sqc_argument_type(aggregate.argument, window.columns, relation) -%}
        {%- do result.update({"argument_type": argument_type}) -%}
        {%- set argument_class = spark_query_catalog._sqc_type_class(argument_type) -%}
        {%- if argument_class is none -%}
            {%- set reason = "the type of " ~ aggregate.argument ~ " is not known: pass `relation` (a ref() or a"
                ~ " table) so that rolling can read it" -%}
        {%- elif argument_class == "floating" -%}
            {%- set reason = "prefix differences of " ~ argument_type ~ " values can differ from the frame's own"
                ~ " sum in the last bits; cast the argument to a decimal for an exact linear form" -%}
        {%- elif argument_class not in ["integral", "decimal"] -%}
            {%- set reason = aggregate.function ~ " of " ~ argument_type ~ " has no linear form" -%}
        {%- elif aggregate.function == "avg" and argument_class == "decimal"
            and spark_query_catalog._sqc_linear_avg_digits(window, argument_type) is none -%}
            {%- set reason = "an exact avg of " ~ argument_type ~ " over this frame would need more than 38 digits" -%}
        {%- else -%}
            {%- set reason = spark_query_catalog._sqc_prefix_overflow_reason(window, aggregate.function, argument_type) -%}
        {%- endif -%}
        {%- do result.update({"guard": spark_query_catalog._sqc_int_avg_guard(window, aggregate, argument_type, macro_name)}) -%}
    {%- endif -%}
    {%- if reason is none and window.frame_kind == "range" -%}
        {%- set reason = spark_query_catalog._sqc_range_linear_reason(window) -%}
    {%- endif -%}

    {%- if reason is not none -%}
        {%- if window.method == "linear" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "method", "'auto' or 'native' here: there is no exact"
                ~ " linear form (" ~ reason ~ ")", window.method) -}}
        {%- endif -%}
        {{- return(result) -}}
    {%- endif -%}
    {%- do result.update({"exact": true}) -%}
    {%- if window.method == "native" -%}
        {{- return(result) -}}
    {%- endif -%}
    {#- Measured (make bench): ROWS frames from 8 rows wide (64 for min and
        max) are faster linear; RANGE frames of intervals are faster linear
        even at 1 or 2 rows a frame (Spark's interval bounds are slow); a
        RANGE of numbers over a key with one row a frame is 1.10x slower
        linear, and how many rows a numeric frame holds depends on the data:
        it stays native unless method='linear'. -#}
    {%- set width = spark_query_catalog._sqc_fewest_rows(window) -%}
    {%- set wide = true -%}
    {%- if width is not none -%}
        {%- set wide = width >= spark_query_catalog._sqc_linear_min_width(aggregate.function, result.argument_type) -%}
    {%- elif window.frame_kind == "range" -%}
        {%- set wide = start.kind == "interval" or end.kind == "interval" -%}
    {%- endif -%}
    {%- do result.update({"linear": window.method == "linear" or wide}) -%}
    {{- return(result) -}}
{% endmacro %}


{#- The fewest rows the window's frames hold, for `auto` to weigh the
    linear form: a ROWS frame's width, or a RANGE frame's `min_rows` where
    the window knows it (rolling_calendar: every step holds a row of its
    own); none where the data decides. -#}
{% macro _sqc_fewest_rows(window) %}
    {%- if window.min_rows is defined and window.min_rows is not none -%}
        {{- return(window.min_rows) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_rows_width(window)) -}}
{% endmacro %}


{#- How many rows a ROWS frame with both ends bounded spans, or none for
    any other frame. -#}
{% macro _sqc_rows_width(window) %}
    {%- if window.frame_kind != "rows" or window.start.kind == "unbounded" or window.end.kind == "unbounded" -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return(window.end.position - window.start.position + 1) -}}
{% endmacro %}


{#- Why a RANGE frame has no exact linear form, or none when it has one. -#}
{% macro _sqc_range_linear_reason(window) %}
    {%- set key = window.key -%}
    {%- if key.kind is none -%}
        {{- return("the order key's type is not known: pass `relation` so that rolling can read it") -}}
    {%- elif key.kind not in ["integral", "decimal", "date", "timestamp"] -%}
        {{- return("a " ~ key.kind ~ " key has no smallest step to tell a frame's start from the row before it") -}}
    {%- endif -%}
    {%- for bound in [window.start, window.end] if bound.kind == "interval" -%}
        {%- if bound.interval.fields == "year_month" -%}
            {{- return("months have no fixed length, so the row before a frame of months cannot be named") -}}
        {%- elif bound.position is none -%}
            {{- return("write the interval as a duration string ('7 days') so that its length is known") -}}
        {%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}
