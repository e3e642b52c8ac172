{#-
    rolling_select's `exclude` 'group' and 'ties' over a ROWS frame
    (_sqc_rolling_exclude.sql has the rest). A ROWS frame's edges can cut
    through the row's peers (the rows with its order keys), so the peers in
    the frame are not all of them, as they are in a RANGE or GROUPS frame.
    The rows are numbered first (`rolling_row`, in the window's order, and
    `rolling_group`, each peer group's number), so that every part of the
    query reads the peers in one order, as a ROWS frame over tied keys
    reads them in some order of Spark's.

    - sum, count and avg of integers and decimals, and count(*), are the
      frame's sum and count (in the forms `auto` takes) less those of the
      peers in the frame: the same frame over the row's peer group alone
      (`partition by` the keys and `rolling_group`, `order by rolling_row`),
      less the row itself for 'ties'. Where a call has only these (and
      no running total can overflow), _sqc_rolling_exclude_prefix.sql
      takes the peers from running totals in one window instead.
    - min, max, floating-point sums and distinct counts have no difference:
      each frame's rows are collected (`collect_list` over Spark's frame,
      as many values a row as the frame holds) and the excluded ones
      filtered out.
-#}

{#- The query: `relation_sql`'s columns and each of `parts`
    (_sqc_exclude_parts) over the ROWS `window` with `exclude` ('group' or
    'ties') applied. -#}
{% macro _sqc_rolling_exclude_rows_sql(relation_sql, relation, parts, window, exclude) %}
    {%- set macro_name = "rolling_select" -%}
    {%- set collected = parts | selectattr("function", "in", ["min", "max"]) | list
        + parts | selectattr("sided") | list + parts | selectattr("arguments") | list -%}
    {%- set subtracted = parts | reject("in", collected) | list -%}
    {#- Where every part subtracts, with running totals that cannot
        overflow, one window does it (_sqc_rolling_exclude_prefix.sql);
        method='native' keeps Spark's own frames, as it does elsewhere. -#}
    {%- set prefix = namespace(exact=not collected and window.method != "native") -%}
    {%- for part in subtracted if part.function != "count"
            and spark_query_catalog._sqc_prefix_overflow_reason(window, part.function, part.type) is not none -%}
        {%- set prefix.exact = false -%}
    {%- endfor -%}
    {%- if prefix.exact -%}
        {{- return(spark_query_catalog._sqc_rolling_exclude_prefix_sql(relation_sql, parts, window, exclude)) -}}
    {%- endif -%}
    {%- set grouped = spark_query_catalog._sqc_numbered_groups(relation_sql, window) -%}
    {%- set numbered = spark_query_catalog._sqc_numbered_groups(grouped.sql, window, "row_number") -%}
    {%- set rows_window = numbered.window -%}
    {%- set helpers = ["rolling_group", "rolling_row"] -%}
    {%- set source = namespace(sql=numbered.sql) -%}

    {#- The frame's sums and counts, then the peers' in the frame. -#}
    {%- set frame_aggregates = {} -%}
    {%- set peer_columns = [] -%}
    {%- set peers = dict(rows_window, partition_clause="partition by " ~ (window.partition_keys + ["rolling_group"]) | join(", ")) -%}
    {%- for part in subtracted -%}
        {%- for measure in spark_query_catalog._sqc_measures(part) -%}
            {%- set call = measure ~ "(" ~ part.argument ~ ")" -%}
            {%- do frame_aggregates.update({part.name ~ "_" ~ measure: call}) -%}
            {%- do peer_columns.append(call ~ spark_query_catalog._sqc_over_sql(peers, rows_window.frame_sql, 4)
                ~ " as " ~ part.name ~ "_peers_" ~ measure) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if frame_aggregates -%}
        {%- set query = spark_query_catalog._sqc_rolling_select_query(source.sql, relation,
            spark_query_catalog._sqc_aggregates(frame_aggregates, macro_name), rows_window, macro_name, in_order=false) -%}
        {%- set source.sql = "(\n" ~ query | indent(4, first=true) ~ "\n) as rolling_frames" -%}
        {%- do helpers.extend(frame_aggregates.keys()) -%}
    {%- endif -%}

    {#- Each frame's rows, for the parts with no difference: a struct a row
        of its numbers and the parts' values. -#}
    {%- set fields = ["rolling_group", "rolling_row"] -%}
    {%- for part in collected -%}
        {%- set value = part.argument if not part.arguments else part.arguments[0] if part.arguments | length == 1
            else "if(\n    " ~ spark_query_catalog._sqc_all_present_sql(part.arguments) ~ ",\n    struct("
                ~ part.arguments | join(", ") ~ "),\n    null\n)" -%}
        {%- do fields.append(spark_query_catalog._sqc_indented(value, 4) ~ " as " ~ part.name) -%}
    {%- endfor -%}
    {%- if collected -%}
        {%- do peer_columns.append(spark_query_catalog._sqc_indented("collect_list(struct(\n    " ~ fields | join(",\n    ")
            ~ "\n))" ~ spark_query_catalog._sqc_over_sql(rows_window, rows_window.frame_sql, 0), 4) ~ " as rolling_frame_rows") -%}
    {%- endif -%}
    {%- set source.sql = spark_query_catalog._sqc_exclude_layer(source.sql, peer_columns, "rolling_peers", helpers) -%}

    {#- What the frame keeps of each collected part: its values that are
        not NULL, of the rows that are not excluded. -#}
    {%- set kept = "(\n            frame_row.rolling_group != rolling_group\n            or frame_row.rolling_row = rolling_row"
        ~ "\n        )" if exclude == "ties" else "frame_row.rolling_group != rolling_group" -%}
    {%- set value_columns = [] -%}
    {%- for part in collected -%}
        {%- do value_columns.append(spark_query_catalog._sqc_indented("transform(\n    filter(\n        rolling_frame_rows,"
            ~ "\n        frame_row -> frame_row." ~ part.name ~ " is not null\n        and " ~ kept ~ "\n    ),"
            ~ "\n    frame_row -> frame_row." ~ part.name ~ "\n)", 4) ~ " as " ~ part.name ~ "_kept") -%}
    {%- endfor -%}
    {%- set source.sql = spark_query_catalog._sqc_exclude_layer(source.sql, value_columns, "rolling_kept", helpers) -%}

    {%- set out_columns = spark_query_catalog._sqc_rows_out_columns(subtracted, window, exclude) -%}
    {%- set source.sql = spark_query_catalog._sqc_exclude_layer(source.sql, out_columns, "rolling_out", helpers) -%}

    {%- set columns = [] -%}
    {%- for part in parts -%}
        {%- set value = spark_query_catalog._sqc_kept_value(part) if part in collected
            else spark_query_catalog._sqc_subtracted_value(part, window, helpers) -%}
        {%- do columns.append(spark_query_catalog._sqc_indented(value, 4) ~ " as "
            ~ spark_query_catalog._sqc_quote(part.alias)) -%}
    {%- endfor -%}
    {{- return("select\n    * except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    ),\n"
        ~ spark_query_catalog._sqc_list_lines(columns, 4) ~ "\nfrom " ~ source.sql) -}}
{% endmacro %}


{#- What `exclude` takes out of each subtracted part's frame over a ROWS
    `window`, as columns `<name>_out_count` and `<name>_out_sum` from the
    peers' (`<name>_peers_count`, `_peers_sum`). For 'ties', the row itself
    stays where it is in its frame. -#}
{% macro _sqc_rows_out_columns(parts, window, exclude) %}
    {%- set in_frame = spark_query_catalog._sqc_bounds_hold_row(window) -%}
    {%- set columns = [] -%}
    {%- for part in parts -%}
        {%- set excluded = spark_query_catalog._sqc_excluded(part, exclude if in_frame else "group", true, none) -%}
        {%- for measure in spark_query_catalog._sqc_measures(part) -%}
            {#- A column taken as it is first, as a careful writer lists them. -#}
            {%- do columns.insert(0 if modules.re.match("^\\w+$", excluded[measure]) else columns | length,
                spark_query_catalog._sqc_wrapped_item(excluded[measure], part.name ~ "_out_" ~ measure, 4, 4)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}


{#- A collected part's value from its kept values (`<name>_kept`), as the
    aggregate gives it over those rows: a floating-point sum adds them in
    the frame's order. -#}
{% macro _sqc_kept_value(part) %}
    {%- set values = part.name ~ "_kept" -%}
    {%- if part.function in ["min", "max"] -%}
        {{- return("array_" ~ part.function ~ "(" ~ values ~ ")") -}}
    {%- elif part.arguments -%}
        {{- return("bigint(size(array_distinct(" ~ values ~ ")))") -}}
    {%- endif -%}
    {%- set total = "aggregate(\n            " ~ values ~ ",\n            cast(0 as double),\n"
        ~ "            (total, value) -> total + value\n        )" -%}
    {{- return("case\n    when size(" ~ values ~ ") > 0\n        then " ~ total
        ~ (" / size(" ~ values ~ ")" if part.function == "avg" else "") ~ "\nend") -}}
{% endmacro %}


{#- A subtracted part's value: its frame's count and sum less the excluded
    rows' (`<name>_out_count`, `<name>_out_sum`, where `helpers` has them). -#}
{% macro _sqc_subtracted_value(part, window, helpers) %}
    {%- set counts = part.name ~ "_count" ~ (" - " ~ part.name ~ "_out_count" if part.name ~ "_out_count" in helpers else "") -%}
    {%- set total = part.name ~ "_sum" ~ (" - " ~ part.name ~ "_out_sum" if part.name ~ "_out_sum" in helpers else "") -%}
    {%- if part.function == "count" -%}
        {{- return(counts) -}}
    {%- endif -%}
    {{- return("case\n    when " ~ counts ~ " > 0\n        then " ~ spark_query_catalog._sqc_indented(
        spark_query_catalog._sqc_linear_value_sql(part.function, part.type, total, counts, window), 8) ~ "\nend") -}}
{% endmacro %}
