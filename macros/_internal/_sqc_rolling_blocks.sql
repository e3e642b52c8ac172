{#-
    min and max over a ROWS frame in linear time (van Herk / Gil-Werman), for
    rolling_select. With the frame [row + lo, row + hi] of w = hi - lo + 1
    rows, rows are numbered (rolling_row) and cut into blocks of w
    (rolling_block). Per block, the running value from the block's start
    (`_from_block_start`) and to its end (`_to_block_end`). The frame's rows
    lie in at most two adjacent blocks, so its value is the better of: at its
    start row, the value to the end of that block; at its end row, the value
    from the start of that block. Near the partition's edges: a frame that
    starts before the first row is the running value at its end row; one
    that ends past the last row takes the last block's running value only if
    that block is after the one the frame starts in, or the whole partition's
    when the frame covers it.
-#}
{% macro _sqc_block_extremes_sql(relation_sql, window, columns, extremes) %}
    {%- set lo = window.start.position | int -%}
    {%- set hi = window.end.position | int -%}
    {%- set width = hi - lo + 1 -%}
    {%- set block_sql = "(rolling_row - 1) div " ~ width -%}
    {%- set numbering = window.order_keys -%}
    {%- set block_window = {
        "partition_clause": "partition by " ~ (window.partition_keys + [block_sql]) | join(", "),
        "order_keys": ["rolling_row"]
    } -%}
    {%- set block_window_desc = {"partition_clause": block_window.partition_clause, "order_keys": ["rolling_row desc"]} -%}
    {%- set row_window = {"partition_clause": window.partition_clause, "order_keys": ["rolling_block", "rolling_row"]} -%}
    {%- set running = "rows between unbounded preceding and current row" -%}
    {%- set whole = "rows between unbounded preceding and unbounded following" -%}

    {%- set helpers = ["rolling_row", "rolling_block"] -%}
    {%- set block_columns = ["*", block_sql ~ " as rolling_block"] -%}
    {%- for extreme in extremes -%}
        {%- set name = "rolling_" ~ extreme.index ~ "_" ~ extreme.aggregate.function -%}
        {%- set call = extreme.aggregate.function ~ "(" ~ extreme.aggregate.argument ~ ")" -%}
        {%- do block_columns.append(call ~ spark_query_catalog._sqc_over_sql(block_window, running, 8)
            ~ " as " ~ name ~ "_from_block_start") -%}
        {%- do block_columns.append(call ~ spark_query_catalog._sqc_over_sql(block_window_desc, running, 8)
            ~ " as " ~ name ~ "_to_block_end") -%}
        {%- do helpers.extend([name ~ "_from_block_start", name ~ "_to_block_end"]) -%}
        {%- do extreme.update({"name": name, "call": call}) -%}
    {%- endfor -%}

    {%- set select = ["* except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    )"] -%}
    {%- for column in columns -%}
        {%- set extreme = extremes | selectattr("alias", "equalto", column.alias) | first -%}
        {%- if extreme is defined and column.sql is none -%}
            {%- do select.append(spark_query_catalog._sqc_block_lookup_sql(extreme, row_window, lo, hi, whole)
                ~ " as " ~ column.alias) -%}
        {%- else -%}
            {%- do select.append(spark_query_catalog._sqc_select_item(column.sql, column.alias)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set lines = [
        "with rolling_numbered as (",
        "    select",
        "        *,",
        "        row_number()" ~ spark_query_catalog._sqc_over_sql(window, none, 8) ~ " as rolling_row",
        "    from " ~ relation_sql | indent(4),
        "),",
        "",
        "rolling_blocks as (",
        "    select",
        spark_query_catalog._sqc_list_lines(block_columns, 8),
        "    from rolling_numbered",
        ")",
        "",
        "select",
        spark_query_catalog._sqc_list_lines(select, 4),
        "from rolling_blocks"
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}


{#- One extreme's value over the frame, from the block running values. -#}
{% macro _sqc_block_lookup_sql(extreme, row_window, lo, hi, whole) %}
    {%- set best = "greatest" if extreme.aggregate.function == "max" else "least" -%}
    {%- set at_start = spark_query_catalog._sqc_shifted(extreme.name ~ "_to_block_end", lo, row_window) -%}
    {%- set at_end = spark_query_catalog._sqc_shifted(extreme.name ~ "_from_block_start", hi, row_window) -%}
    {%- set within = best ~ "(\n    " ~ spark_query_catalog._sqc_indented(at_start, 4) ~ ",\n    "
        ~ spark_query_catalog._sqc_indented(at_end, 4) ~ "\n)" -%}
    {%- if hi <= 0 -%}
        {#- The frame ends at or before the current row: a lag past the
            partition's first row is NULL, which greatest/least skip. -#}
        {{- return(spark_query_catalog._sqc_indented(within, 4)) -}}
    {%- endif -%}
    {%- set rows = "count(*)" ~ spark_query_catalog._sqc_over_sql(row_window, whole, 0) -%}
    {%- set everything = extreme.call ~ spark_query_catalog._sqc_over_sql(row_window, whole, 0) -%}
    {%- set last_block = "max(rolling_block)" ~ spark_query_catalog._sqc_over_sql(row_window, whole, 0) -%}
    {%- set last_running = "last_value(" ~ extreme.name ~ "_from_block_start)"
        ~ spark_query_catalog._sqc_over_sql(row_window, whole, 0) -%}
    {%- set start_block = spark_query_catalog._sqc_shifted("rolling_block", lo, row_window) -%}
    {%- set branches = [] -%}
    {%- if lo > 0 -%}
        {%- do branches.append("when\n    rolling_row + " ~ lo ~ " > " ~ spark_query_catalog._sqc_indented(rows, 4) ~ "\n    then null") -%}
    {%- endif -%}
    {%- do branches.append("when\n    rolling_row + " ~ hi ~ " <= " ~ spark_query_catalog._sqc_indented(rows, 4)
        ~ "\n    then " ~ spark_query_catalog._sqc_indented(within, 4)) -%}
    {%- if lo < 0 -%}
        {%- do branches.append("when rolling_row - " ~ (0 - lo) ~ " < 1\n    then " ~ spark_query_catalog._sqc_indented(everything, 4)) -%}
    {%- endif -%}
    {%- do branches.append("else " ~ best ~ "(\n    " ~ spark_query_catalog._sqc_indented(at_start, 4) ~ ",\n    case\n        when\n            "
        ~ spark_query_catalog._sqc_indented(start_block, 12) ~ " < " ~ spark_query_catalog._sqc_indented(last_block, 12)
        ~ "\n            then " ~ spark_query_catalog._sqc_indented(last_running, 12) ~ "\n    end\n)") -%}
    {{- return(spark_query_catalog._sqc_indented("case\n    " ~ spark_query_catalog._sqc_indented(branches | join("\n"), 4) ~ "\nend", 4)) -}}
{% endmacro %}


{#- `column` at the row `offset` rows from the current one (lag or lead). -#}
{% macro _sqc_shifted(column, offset, row_window) %}
    {%- if offset == 0 -%}
        {{- return(column) -}}
    {%- endif -%}
    {%- set function = "lag" if offset < 0 else "lead" -%}
    {{- return(function ~ "(" ~ column ~ ", " ~ ([offset, -offset] | max) ~ ")"
        ~ spark_query_catalog._sqc_over_sql(row_window, none, 0)) -}}
{% endmacro %}
