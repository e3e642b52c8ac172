{#-
    pivot_values(relation, pivot_column, max_values=10000)

    The distinct values of `pivot_column` in `relation`, sorted, NULL first:
    what pivot discovers when it is given no `values`, as a list to pass as
    `values=` (a list of lists for several pivot columns). Strings stay
    strings, integers and booleans come back as numbers and booleans, and
    every other value (dates, timestamps, decimals, doubles) as its text,
    which PIVOT casts back to the column's type. More than `max_values`
    distinct values is a compile error, as in pivot.

    A model that passes `values=pivot_values(...)` can be unit tested: dbt
    runs no query in a unit test, and the test gives the values instead:
        unit_tests:
          - name: ...
            overrides:
              macros:
                pivot_values: ['team1', 'team2']

    While dbt parses, it returns [] (pivot accepts that then).

    Example:
        {{ pivot(ref('teams'), 'name', 'sum(points)', group_by='country',
                 values=pivot_values(ref('teams'), 'name')) }}
-#}
{% macro pivot_values(relation, pivot_column, max_values=10000) %}
    {{- return(adapter.dispatch("pivot_values", "spark_query_catalog")(relation, pivot_column, max_values)) -}}
{% endmacro %}


{% macro default__pivot_values(relation, pivot_column, max_values) %}
    {%- set macro_name = "pivot_values" -%}
    {%- do spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set pivot_names = spark_query_catalog._sqc_string_list(pivot_column, macro_name, "pivot_column", allow_empty=false) -%}
    {%- do spark_query_catalog._sqc_check_max_values(max_values, macro_name) -%}
    {%- if not execute -%}
        {{- return([]) -}}
    {%- endif -%}
    {%- set columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- do spark_query_catalog._sqc_require_columns(columns, relation, macro_name, "Reading the pivot values",
        "pass the values explicitly (in a unit test: `overrides: macros: {pivot_values: [...]}`)") -%}
    {%- do spark_query_catalog._sqc_check_discoverable(columns, pivot_names, macro_name) -%}
    {%- set pivot_sql = [] -%}
    {%- for name in pivot_names -%}
        {%- do pivot_sql.append(spark_query_catalog._sqc_column_sql(name, columns, macro_name, "pivot_column")) -%}
    {%- endfor -%}
    {%- set result = [] -%}
    {%- for row in spark_query_catalog._sqc_pivot_value_rows(relation, pivot_sql, max_values, macro_name) -%}
        {%- set values = [] -%}
        {%- for name in pivot_names -%}
            {%- set data_type = spark_query_catalog._sqc_find_column(columns, name).data_type -%}
            {%- do values.append(spark_query_catalog._sqc_python_value(row[loop.index0].text, data_type)) -%}
        {%- endfor -%}
        {%- do result.append(values[0] if values | length == 1 else values) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}
