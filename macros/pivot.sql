{#-
    pivot(relation, pivot_column, aggregates, values=none, group_by=none, max_values=10000)

    A full `select` that turns the values of `pivot_column` into columns with
    Spark's native PIVOT clause.

    relation      Relation or string (table, view or CTE) to read.
    pivot_column  The column whose values become columns; a list of columns
                  pivots on tuples: `for (a, b) in ((1, 'x') as ...)`.
    aggregates    One aggregate (string), a list, or a dict of alias to
                  aggregate. With several, columns are named
                  `<value alias>_<aggregate alias>`, as Spark names them.
    values        none (default): the distinct values are read from `relation`
                  when the model runs, sorted, NULL first. A list of values, or
                  a dict of value to column alias. Tuple pivots take lists or
                  tuples of values. NULL is a value: it matches NULL rows.
    group_by      none (default): every column not used by the pivot or the
                  aggregates is a row key, as in Spark. A column or a list of
                  columns: only these are row keys; all other columns are
                  dropped before the pivot.
    max_values    Most distinct values discovery accepts (default 10000, like
                  spark.sql.pivotMaxValues). More is a compile error.

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
{% macro pivot(relation, pivot_column, aggregates, values=none, group_by=none, max_values=10000) %}
    {{- return(adapter.dispatch("pivot", "spark_query_catalog")(
        relation, pivot_column, aggregates, values, group_by, max_values
    )) -}}
{% endmacro %}


{% macro default__pivot(relation, pivot_column, aggregates, values, group_by, max_values) %}
    {%- set macro_name = "pivot" -%}
    {%- set relation_sql = spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set pivot_names = spark_query_catalog._sqc_string_list(pivot_column, macro_name, "pivot_column", allow_empty=false) -%}
    {%- set aggregate_list = spark_query_catalog._sqc_aggregates(aggregates, macro_name) -%}
    {%- set group_names = spark_query_catalog._sqc_string_list(group_by, macro_name, "group_by") -%}
    {%- if max_values is not integer or max_values < 1 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "max_values", "a positive integer", max_values) -}}
    {%- endif -%}
    {%- if values is not none and (values is string or values is not iterable or values | length == 0) -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "values",
            "none (discover them), a non-empty list of values or a non-empty dict of value to alias", values) -}}
    {%- endif -%}

    {%- set columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- set pivot_sql = [] -%}
    {%- for name in pivot_names -%}
        {%- do pivot_sql.append(spark_query_catalog._sqc_column_sql(name, columns, macro_name, "pivot_column")) -%}
    {%- endfor -%}
    {%- set group_sql = [] -%}
    {%- for name in group_names -%}
        {%- set column = spark_query_catalog._sqc_column_sql(name, columns, macro_name, "group_by") -%}
        {%- if column in pivot_sql -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "group_by", "columns other than the pivot column", group_by) -}}
        {%- endif -%}
        {%- do group_sql.append(column) -%}
    {%- endfor -%}

    {#- Pivot values: [{"literals": [...], "alias": ...}] -#}
    {%- if values is none -%}
        {%- if not execute -%}
            {{- return("") -}}
        {%- endif -%}
        {%- set pivot_values = spark_query_catalog._sqc_discover_pivot_values(
            relation, relation_sql, columns, pivot_names, pivot_sql, max_values
        ) -%}
    {%- else -%}
        {%- set pivot_values = spark_query_catalog._sqc_given_pivot_values(values, pivot_names | length) -%}
    {%- endif -%}
    {%- if pivot_values | length == 0 -%}
        {{- spark_query_catalog._sqc_error(macro_name, "`relation` " ~ relation_sql ~ " has no values in "
            ~ pivot_names | join(", ") ~ " to pivot on; pass `values` to fix the output columns.") -}}
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
    {%- if group_sql | length > 0 -%}
        {%- set source_columns = group_sql + pivot_sql -%}
        {%- for aggregate in aggregate_list -%}
            {%- for name in spark_query_catalog._sqc_referenced_columns(aggregate.sql, columns) -%}
                {%- set column = spark_query_catalog._sqc_quote(name) -%}
                {%- if column not in source_columns -%}
                    {%- do source_columns.append(column) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endfor -%}
        {%- set from_sql = spark_query_catalog._sqc_derived_table(source_columns, relation_sql, "pivot_source") -%}
    {%- else -%}
        {%- set from_sql = relation_sql -%}
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


{#- Values given by the caller, as literals and aliases. -#}
{% macro _sqc_given_pivot_values(values, width) %}
    {%- set result = [] -%}
    {%- set allowed = "values matching `pivot_column`: one value each for one column, a list of "
        ~ width ~ " values each for " ~ width ~ " columns" -%}
    {%- for value in values -%}
        {%- if values is mapping -%}
            {%- set alias = values[value] -%}
            {%- if alias is not string or alias | trim == "" -%}
                {{- spark_query_catalog._sqc_fail("pivot", "values", "a dict of value to a non-empty column alias", values) -}}
            {%- endif -%}
        {%- else -%}
            {%- set alias = none -%}
        {%- endif -%}
        {%- if width == 1 -%}
            {%- if value is not none and value is not string and value is iterable -%}
                {{- spark_query_catalog._sqc_fail("pivot", "values", allowed, values) -}}
            {%- endif -%}
            {%- set parts = [value] -%}
        {%- else -%}
            {%- if value is none or value is string or value is not iterable or value | length != width -%}
                {{- spark_query_catalog._sqc_fail("pivot", "values", allowed, values) -}}
            {%- endif -%}
            {%- set parts = value | list -%}
        {%- endif -%}
        {%- set literals = [] -%}
        {%- set labels = [] -%}
        {%- for part in parts -%}
            {%- if part is mapping or (part is iterable and part is not string) -%}
                {{- spark_query_catalog._sqc_fail("pivot", "values", "literal values (strings, numbers, booleans or none)", values) -}}
            {%- endif -%}
            {%- do literals.append(spark_query_catalog._sqc_literal(part)) -%}
            {%- do labels.append(spark_query_catalog._sqc_value_label(part)) -%}
        {%- endfor -%}
        {%- do result.append({"literals": literals, "alias": alias or labels | join("_")}) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#-
    Distinct values of the pivot column(s), sorted, read when the model runs.
    Values travel as text with a prefix (so no type inference can turn '007'
    into 7) and come back as typed literals.
-#}
{% macro _sqc_discover_pivot_values(relation, relation_sql, columns, pivot_names, pivot_sql, max_values) %}
    {%- do spark_query_catalog._sqc_require_columns(columns, relation, "pivot", "Discovering pivot `values`") -%}
    {%- set select_sql = [] -%}
    {%- for column in pivot_sql -%}
        {%- do select_sql.append("concat('v:', cast(" ~ column ~ " as string)) as value_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- set query -%}
select {{ select_sql | join(", ") }}
from (select distinct {{ pivot_sql | join(", ") }} from {{ relation_sql }})
order by {{ pivot_sql | join(", ") }}
limit {{ max_values + 1 }}
    {%- endset -%}
    {%- set rows = run_query(query).rows -%}
    {%- if rows | length > max_values -%}
        {%- set count_query -%}
select count(*) from (select distinct {{ pivot_sql | join(", ") }} from {{ relation_sql }})
        {%- endset -%}
        {%- set found = run_query(count_query).columns[0].values()[0] -%}
        {{- spark_query_catalog._sqc_error("pivot",
            "the pivot column " ~ pivot_sql | join(", ") ~ " of " ~ relation_sql
            ~ " has " ~ found ~ " distinct values, more than `max_values` (" ~ max_values ~ ")."
            ~ " If this is intended, raise `max_values` to at least " ~ found
            ~ ", or pass the wanted `values` explicitly.") -}}
    {%- endif -%}
    {%- set result = [] -%}
    {%- for row in rows -%}
        {%- set literals = [] -%}
        {%- set labels = [] -%}
        {%- for name in pivot_names -%}
            {%- set raw = row[loop.index0] -%}
            {%- set data_type = spark_query_catalog._sqc_find_column(columns, name).data_type -%}
            {%- if raw is none -%}
                {%- do literals.append("null") -%}
                {%- do labels.append("null") -%}
            {%- else -%}
                {%- set text = (raw | string)[2:] -%}
                {%- do literals.append(spark_query_catalog._sqc_typed_literal(text, data_type)) -%}
                {%- do labels.append(text) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do result.append({"literals": literals, "alias": labels | join("_")}) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}
