{#-
    count(distinct ...) over a frame. Spark refuses DISTINCT in a window
    function over a frame; its usual stand-in, size(collect_set(x)) over the
    frame, builds the set again for every row: rows x frame width.

    The linear form, for a ROWS frame [row + lo, row + hi] with both ends
    bounded (rolling_select): number the rows (rolling_row); for each row j
    whose value is not NULL, find where the same value last occurred in the
    partition, p (a lag over the partition and the value). Row j is the
    first of its value in the frame of row i, and so counts for i, exactly
    when j is in that frame (j - hi <= i <= j - lo) and p is not
    (i > p - lo). So j counts for the rows i from max(j - hi, p - lo + 1) to
    j - lo: a change of +1 at the first of them and of -1 just after the
    last. Every row brings two changes (one inline() of three records: the
    row, its +1, its -1); a running sum of the changes in row order, read at
    each row, is its distinct count. No join, nothing that grows with the
    frame's width. Several values (count(distinct a, b)) are one value, and
    a row with any of them NULL counts for nothing, as in Spark.
-#}

{#- {"arguments": [...]} of `count(distinct a[, b ...])`, or none. -#}
{% macro _sqc_parse_distinct_count(expression) %}
    {%- set match = modules.re.match("^\s*count\s*\(\s*distinct\s+(.*)\)\s*$",
        expression, modules.re.IGNORECASE + modules.re.DOTALL) -%}
    {%- if match is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set arguments = [] -%}
    {%- set state = {"depth": 0, "start": 0} -%}
    {%- set text = match.group(1) -%}
    {%- for character in text -%}
        {%- if character == "(" -%}
            {%- do state.update({"depth": state.depth + 1}) -%}
        {%- elif character == ")" -%}
            {%- do state.update({"depth": state.depth - 1}) -%}
        {%- elif character == "," and state.depth == 0 -%}
            {%- do arguments.append(text[state.start:loop.index0] | trim) -%}
            {%- do state.update({"start": loop.index}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do arguments.append(text[state.start:] | trim) -%}
    {%- if state.depth != 0 or "" in arguments -%}
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
        {{- return("count(distinct) needs helper columns: use rolling_select") -}}
    {%- elif window.frame_kind != "rows" -%}
        {{- return("count(distinct) is linear over ROWS frames only (RANGE frames: native)") -}}
    {%- elif window.start.kind == "unbounded" or window.end.kind == "unbounded" -%}
        {{- return("count(distinct) is linear over frames with both ends bounded") -}}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}


{#- Whether a distinct count over `window` is linear: method='linear' where
    there is none is an error saying why; 'auto' takes it from
    _sqc_linear_min_width('count_distinct') rows wide (measured). -#}
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
    {%- set width = window.end.position - window.start.position + 1 -%}
    {{- return(window.method == "linear" or (window.method == "auto"
        and width >= spark_query_catalog._sqc_linear_min_width("count_distinct"))) -}}
{% endmacro %}


{#- Every column of `relation_sql` and each distinct count ({arguments,
    alias}) over the ROWS frame of `window`, in linear form. -#}
{% macro _sqc_linear_distinct_sql(relation_sql, window, distincts) %}
    {%- set lo = window.start.position | int -%}
    {%- set hi = window.end.position | int -%}
    {%- set keys = [] -%}
    {#- The keys, order keys and values under names of their own first, so
        that every window after partitions by the same column, rolling_key_0
        (one shuffle); the row's own columns travel as one struct. -#}
    {%- set source_columns = [] -%}
    {%- for key in window.partition_keys -%}
        {%- do keys.append("rolling_key_" ~ loop.index0) -%}
        {%- do source_columns.append(key ~ " as rolling_key_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- set order_keys = [] -%}
    {%- for key in window.order_keys -%}
        {%- set head = spark_query_catalog._sqc_key_head(key) -%}
        {%- do source_columns.append(head ~ " as rolling_order_" ~ loop.index0) -%}
        {%- do order_keys.append("rolling_order_" ~ loop.index0 ~ key[head | length:]) -%}
    {%- endfor -%}
    {%- for distinct in distincts -%}
        {%- do source_columns.append(spark_query_catalog._sqc_indented(
            spark_query_catalog._sqc_distinct_value_sql(distinct.arguments), 8) ~ " as rolling_" ~ loop.index0 ~ "_value") -%}
    {%- endfor -%}
    {%- do source_columns.append("struct(*) as rolling_values") -%}
    {%- set numbering_window = {
        "partition_clause": ("partition by " ~ keys | join(", ")) if keys else "",
        "order_keys": order_keys
    } -%}
    {%- set row_columns = ["*", "row_number()" ~ spark_query_catalog._sqc_over_sql(numbering_window, none, 8) ~ " as rolling_row"] -%}

    {%- set previous_columns = ["*"] -%}
    {%- for distinct in distincts -%}
        {%- set value_window = {
            "partition_clause": "partition by " ~ (keys + ["rolling_" ~ loop.index0 ~ "_value"]) | join(", "),
            "order_keys": ["rolling_row"]
        } -%}
        {%- do previous_columns.append("lag(rolling_row)" ~ spark_query_catalog._sqc_over_sql(value_window, none, 8)
            ~ " as rolling_" ~ loop.index0 ~ "_previous") -%}
    {%- endfor -%}

    {#- The records of each row: itself (kind 1), then for each count its +1
        and its -1 (kind 0: a change at a position applies to the row there). -#}
    {%- set records = [] -%}
    {%- set zeros = [] -%}
    {%- for distinct in distincts -%}
        {%- do zeros.append("'change_" ~ loop.index0 ~ "', 0") -%}
    {%- endfor -%}
    {%- do records.append("named_struct(\n    'position', rolling_row,\n    'kind', 1,\n    "
        ~ zeros | join(",\n    ") ~ ",\n    'row_values', rolling_values\n)") -%}
    {%- for distinct in distincts -%}
        {%- set index = loop.index0 -%}
        {%- set counted = "if(rolling_" ~ index ~ "_value is null, 0, 1)" -%}
        {#- From the frame's first row that holds j, but not before the first
            whose frame no longer holds j's previous occurrence (greatest()
            skips the NULL of a first occurrence). -#}
        {%- set first = "rolling_row" ~ spark_query_catalog._sqc_signed_term(0 - hi) -%}
        {%- set start = "greatest(" ~ first ~ ", rolling_" ~ index ~ "_previous"
            ~ spark_query_catalog._sqc_signed_term(1 - lo) ~ ")" -%}
        {%- set stop = "rolling_row" ~ spark_query_catalog._sqc_signed_term(1 - lo) -%}
        {%- for position, sign in [(start, ""), (stop, "-")] -%}
            {%- set changes = [] -%}
            {%- for other in distincts -%}
                {%- do changes.append("'change_" ~ loop.index0 ~ "', "
                    ~ (sign ~ counted if loop.index0 == index else "0")) -%}
            {%- endfor -%}
            {#- A long position on a line of its own, after its name. -#}
            {%- set position = ("\n    " if position | length > 40 else "") ~ position -%}
            {%- do records.append("named_struct(\n    'position'," ~ ("" if position.startswith("\n") else " ") ~ position ~ ",\n    'kind', 0,\n    "
                ~ changes | join(",\n    ") ~ ",\n    'row_values', null\n)") -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set indented_records = [] -%}
    {%- for record in records -%}
        {%- do indented_records.append(spark_query_catalog._sqc_indented(record, 12)) -%}
    {%- endfor -%}
    {%- set change_columns = [] -%}
    {%- for distinct in distincts -%}
        {%- do change_columns.append("change_" ~ loop.index0) -%}
    {%- endfor -%}

    {%- set running_window = {
        "partition_clause": ("partition by " ~ keys | join(", ")) if keys else "",
        "order_keys": ["position", "kind"]
    } -%}
    {%- set count_columns = ["kind", "row_values"] -%}
    {%- for distinct in distincts -%}
        {%- do count_columns.append("sum(change_" ~ loop.index0 ~ ")"
            ~ spark_query_catalog._sqc_over_sql(running_window, "rows between unbounded preceding and current row", 8)
            ~ " as count_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- set select = ["rolling_counts.row_values.*"] -%}
    {%- for distinct in distincts -%}
        {%- do select.append("rolling_counts.count_" ~ loop.index0 ~ " as " ~ distinct.alias) -%}
    {%- endfor -%}
    {%- set lines = [
        "with rolling_source as (",
        "    select",
        spark_query_catalog._sqc_list_lines(source_columns, 8),
        "    from " ~ relation_sql,
        "),",
        "",
        "rolling_rows as (",
        "    select",
        spark_query_catalog._sqc_list_lines(row_columns, 8),
        "    from rolling_source",
        "),",
        "",
        "rolling_previous as (",
        "    select",
        spark_query_catalog._sqc_list_lines(previous_columns, 8),
        "    from rolling_rows",
        "),",
        "",
        "rolling_changes as (",
        "    select",
        spark_query_catalog._sqc_list_lines(keys + ["position", "kind"] + change_columns + ["row_values"], 8),
        "    from rolling_previous",
        "        lateral view inline(array(",
        spark_query_catalog._sqc_list_lines(indented_records, 12),
        "        )) rolling_records",
        "),",
        "",
        "rolling_counts as (",
        "    select",
        spark_query_catalog._sqc_list_lines(count_columns, 8),
        "    from rolling_changes",
        ")",
        "",
        "select",
        spark_query_catalog._sqc_list_lines(select, 4),
        "from rolling_counts",
        "where rolling_counts.kind = 1"
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}


{#- " + n", " - n", or nothing for 0: a term added to a position. -#}
{% macro _sqc_signed_term(number) %}
    {%- if number == 0 -%}
        {{- return("") -}}
    {%- endif -%}
    {{- return((" + " if number > 0 else " - ") ~ ([number, -number] | max)) -}}
{% endmacro %}
