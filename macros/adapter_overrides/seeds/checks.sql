{#-
    Every value must fit its column's type: the first that does not stops
    the load, with the file, row and column named, before the seed's table
    is touched.
-#}
{% macro _sqc_seed_validate(model, columns, rows_sql, source_relation, method) %}
    {%- if method == "csv" -%}
        {#- Spark reads no file for a query of the corrupt-record column alone. -#}
        {%- set ragged = run_query("select spark_query_catalog_row, c0 from (" ~ rows_sql
            ~ ") as seed_rows where spark_query_catalog_corrupt_record is not null order by spark_query_catalog_row limit 1") -%}
        {%- if ragged.rows | length > 0 -%}
            {%- do spark_query_catalog._sqc_seed_drop_source(source_relation, method) -%}
            {{- exceptions.raise_compiler_error(
                "seed " ~ model.name ~ " (" ~ model.original_file_path ~ "), row " ~ ragged.rows[0][0]
                ~ ": the row does not have " ~ columns | length ~ " values, as the header has"
                ~ " (a ragged row). Fix the row. Nothing was loaded."
            ) -}}
        {%- endif -%}
    {%- endif -%}
    {%- set checks = [] -%}
    {%- for column in columns if column.type != "string" -%}
        {%- set value = spark_query_catalog._sqc_seed_value_sql(column) -%}
        {%- do checks.append({
            "column": column,
            "sql": "(" ~ value ~ ") is not null and try_cast(" ~ value ~ " as " ~ column.type ~ ") is null"
        }) -%}
    {%- endfor -%}
    {%- if checks | length == 0 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set conditions = [] -%}
    {%- set labels = [] -%}
    {%- for check in checks -%}
        {%- do conditions.append(check.sql) -%}
        {%- do labels.append("when " ~ check.sql ~ " then " ~ loop.index0) -%}
    {%- endfor -%}
    {%- set query -%}
select spark_query_catalog_row, case {{ labels | join(" ") }} end as bad_check
from ({{ rows_sql }}) as seed_rows
where {{ conditions | join(" or ") }}
order by spark_query_catalog_row
limit 1
    {%- endset -%}
    {%- set bad = run_query(query) -%}
    {%- if bad.rows | length > 0 -%}
        {%- set row_number = bad.rows[0][0] -%}
        {%- set column = checks[bad.rows[0][1] | int].column -%}
        {%- set value_query = "select " ~ column.alias ~ " from (" ~ rows_sql ~ ") as seed_rows where spark_query_catalog_row = " ~ row_number -%}
        {%- set value = run_query(value_query).rows[0][0] -%}
        {%- do spark_query_catalog._sqc_seed_drop_source(source_relation, method) -%}
        {{- exceptions.raise_compiler_error(
            "seed " ~ model.name ~ " (" ~ model.original_file_path ~ "), row " ~ row_number
            ~ ", column `" ~ column.name ~ "`: the value " ~ spark_query_catalog._sqc_repr(value | string)
            ~ " does not fit the column's type " ~ column.type
            ~ ". Fix the value, or set the column's type with the seed config `column_types`."
            ~ " Nothing was loaded."
        ) -}}
    {%- endif -%}
{% endmacro %}
