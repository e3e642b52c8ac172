{#-
    The three-record form of the linear distinct counts, kept for RANGE
    frames over bigint and decimal keys (_sqc_rolling_distinct.sql says
    how it counts and why).
-#}


{#- Every column of `relation_sql` and each distinct count ({arguments,
    alias}) over the frame of `window`, in linear form. -#}
{% macro _sqc_linear_distinct_sql(relation_sql, window, distincts) %}
    {%- set axis = spark_query_catalog._sqc_distinct_axis(window) -%}
    {%- if axis.position is none or axis.counted -%}
        {{- return(spark_query_catalog._sqc_linear_distinct_chains_sql(relation_sql, window, distincts, axis)) -}}
    {%- endif -%}
    {#- The three-record form (RANGE over bigint and decimal keys). The
        keys, the position and the values under names of their own first,
        so that every window after partitions by the same columns (one
        shuffle); the row's own columns travel as one struct. -#}
    {%- set keys = [] -%}
    {%- set source_columns = [] -%}
    {%- for key in window.partition_keys -%}
        {%- do keys.append("rolling_key_" ~ loop.index0) -%}
        {%- do source_columns.append(key ~ " as rolling_key_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- do source_columns.append(axis.position ~ " as rolling_position") -%}
    {%- do source_columns.extend(spark_query_catalog._sqc_distinct_value_columns(distincts)) -%}
    {%- do source_columns.append("struct(*) as rolling_values") -%}
    {%- set partition_clause = ("partition by " ~ keys | join(", ")) if keys else "" -%}
    {%- set ctes = [spark_query_catalog._sqc_distinct_source_cte(relation_sql, source_columns, keys)] -%}

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
