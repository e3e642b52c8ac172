{#-
    pivot(relation, pivot_column, aggregates, values=none, group_by=none, max_values=10000, on_no_values='warn')

    A full `select` that turns the values of `pivot_column` into columns with
    Spark's native PIVOT clause.

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    Under `dbt build --empty`, discovery still reads the relation's values, so
    that the model keeps its columns; when it finds none (an input built
    empty), the model selects its row keys alone, whatever on_no_values says.

    Example:
        {{ pivot(ref('teams'), 'name', 'sum(points)', group_by='country') }}
    compiles to
        select *
        from (
            select
                country,
                name,
                points
            from teams
        ) as pivot_source
            pivot (
                sum(points)
                for name in (
                    'team1' as team1,
                    ...
                )
            )
-#}
{% macro pivot(relation, pivot_column, aggregates, values=none, group_by=none, max_values=10000, on_no_values="warn") %}
    {{- return(adapter.dispatch("pivot", "spark_query_catalog")(
        relation, pivot_column, aggregates, values, group_by, max_values, on_no_values
    )) -}}
{% endmacro %}


{% macro default__pivot(relation, pivot_column, aggregates, values, group_by, max_values, on_no_values) %}
    {%- set macro_name = "pivot" -%}
    {%- set relation_sql = spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set pivot_names = spark_query_catalog._sqc_string_list(pivot_column, macro_name, "pivot_column", allow_empty=false) -%}
    {%- set aggregate_list = spark_query_catalog._sqc_aggregates(aggregates, macro_name) -%}
    {%- set group_names = none if group_by is none
        else spark_query_catalog._sqc_string_list(group_by, macro_name, "group_by") -%}
    {%- do spark_query_catalog._sqc_check_max_values(max_values, macro_name) -%}
    {%- if on_no_values not in ["warn", "fail"] -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "on_no_values", "'warn' or 'fail'", on_no_values) -}}
    {%- endif -%}
    {%- if values is not none and (values is string or values is not iterable) -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "values",
            "none (discover them), a non-empty list of values or a non-empty dict of value to alias", values) -}}
    {%- endif -%}
    {%- if not execute and (values is none or values | length == 0) -%}
        {#- Parsing: values are discovered (or given by pivot_values) when the model runs. -#}
        {{- return("") -}}
    {%- endif -%}
    {%- if values is not none and values | length == 0 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "values",
            "none (discover them), a non-empty list of values or a non-empty dict of value to alias", values) -}}
    {%- endif -%}

    {%- set columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- set pivot_sql = [] -%}
    {%- for name in pivot_names -%}
        {%- do pivot_sql.append(spark_query_catalog._sqc_column_sql(name, columns, macro_name, "pivot_column")) -%}
    {%- endfor -%}
    {%- set group_sql = [] -%}
    {%- for name in group_names or [] -%}
        {%- set column = spark_query_catalog._sqc_column_sql(name, columns, macro_name, "group_by") -%}
        {%- if column in pivot_sql -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "group_by", "columns other than the pivot column", group_by) -}}
        {%- endif -%}
        {%- do group_sql.append(column) -%}
    {%- endfor -%}

    {#- Pivot values: [{"literals": [...], "alias": ...}] -#}
    {%- if values is none -%}
        {%- set pivot_values = spark_query_catalog._sqc_discovered_pivot_values(
            relation, columns, pivot_names, pivot_sql, max_values, macro_name
        ) -%}
    {%- else -%}
        {%- set pivot_values = spark_query_catalog._sqc_given_pivot_values(values, pivot_names | length) -%}
    {%- endif -%}
    {%- set seen = [] -%}
    {%- for value in pivot_values -%}
        {%- if value.alias | lower in seen -%}
            {{- spark_query_catalog._sqc_error(macro_name, "two pivot values give the same column name "
                ~ spark_query_catalog._sqc_quote(value.alias) ~ "; pass `values` as a dict of value to a distinct alias.") -}}
        {%- endif -%}
        {%- do seen.append(value.alias | lower) -%}
    {%- endfor -%}

    {#- The rows fed to PIVOT: with group_by, only the keys and the columns the pivot reads. -#}
    {%- set read_sql = spark_query_catalog._sqc_pivot_read_columns(aggregate_list, columns, pivot_sql) -%}
    {%- if group_names is not none -%}
        {%- set source_columns = group_sql + read_sql -%}
        {%- set from_sql = spark_query_catalog._sqc_derived_table(source_columns, relation_sql, "pivot_source") -%}
    {%- else -%}
        {%- set from_sql = relation_sql -%}
    {%- endif -%}

    {%- if pivot_values | length == 0 -%}
        {{- return(spark_query_catalog._sqc_pivot_without_values(
            relation_sql, columns, group_names, group_sql, read_sql, pivot_names, on_no_values
        )) -}}
    {%- endif -%}

    {%- set aggregate_sql = [] -%}
    {%- for aggregate in aggregate_list -%}
        {%- do aggregate_sql.append(spark_query_catalog._sqc_aggregate_sql(aggregate)) -%}
    {%- endfor -%}
    {%- set value_sql = [] -%}
    {%- for value in pivot_values -%}
        {%- if value.literals | length == 1 -%}
            {%- set literal = value.literals[0] -%}
        {%- else -%}
            {%- set literal = "(" ~ value.literals | join(", ") ~ ")" -%}
        {%- endif -%}
        {%- do value_sql.append(literal ~ " as " ~ spark_query_catalog._sqc_quote(value.alias)) -%}
    {%- endfor -%}
    {%- if pivot_sql | length == 1 -%}
        {%- set for_sql = pivot_sql[0] -%}
    {%- else -%}
        {%- set for_sql = "(" ~ pivot_sql | join(", ") ~ ")" -%}
    {%- endif -%}

    {%- set lines = [
        "select *",
        "from " ~ from_sql,
        "    pivot (",
        spark_query_catalog._sqc_list_lines(aggregate_sql, 8),
        "        for " ~ for_sql ~ " in (",
        spark_query_catalog._sqc_list_lines(value_sql, 12),
        "        )",
        "    )"
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}
