{#-
    A state frame's records on its axis: what each row, anchor and head
    adds to or takes from the running sums (states.sql).
-#}


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
