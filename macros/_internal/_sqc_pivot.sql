{#- pivot's values given by the caller, and what a pivot without values selects
    (discovery: _sqc_pivot_discovery.sql). -#}

{% macro _sqc_check_max_values(max_values, macro_name) %}
    {%- if max_values is not integer or max_values is boolean or max_values < 1 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "max_values", "a positive integer", max_values) -}}
    {%- endif -%}
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


{#- The pivot column(s) and the relation's columns the aggregates read. -#}
{% macro _sqc_pivot_read_columns(aggregate_list, columns, pivot_sql) %}
    {%- set read = pivot_sql | list -%}
    {%- for aggregate in aggregate_list -%}
        {%- for name in spark_query_catalog._sqc_referenced_columns(aggregate.sql, columns) -%}
            {%- set column = spark_query_catalog._sqc_quote(name) -%}
            {%- if column not in read -%}
                {%- do read.append(column) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(read) -}}
{% endmacro %}


{#-
    A pivot whose discovery found no value: `relation` has no rows. Spark has
    no PIVOT without values, and `in ()` is not SQL. The model selects its
    row keys alone (with group_by=[], none of the rows it would pivot): no
    rows, and the key columns. An empty table is a normal state (a new
    environment, a filtered dev target), so this is a warning naming the
    relation, or with on_no_values='fail' a compile error; under `--empty`
    (an input built empty) it is logged only.
-#}
{% macro _sqc_pivot_without_values(relation_sql, columns, group_names, group_sql, read_sql, pivot_names, on_no_values) %}
    {%- if group_names is none -%}
        {%- set keys = [] -%}
        {%- for column in columns or [] -%}
            {%- set quoted = spark_query_catalog._sqc_quote(column.name) -%}
            {%- if quoted not in read_sql -%}
                {%- do keys.append(quoted) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {%- set keys = group_sql -%}
    {%- endif -%}
    {%- set outcome = "the model selects " ~ ("its row keys alone" if keys else "no rows") -%}
    {%- if flags.EMPTY -%}
        {%- do log("spark_query_catalog.pivot: no values in " ~ pivot_names | join(", ") ~ " of "
            ~ relation_sql ~ " under --empty: " ~ outcome ~ ".", info=true) -%}
    {%- elif on_no_values == "fail" -%}
        {{- spark_query_catalog._sqc_error("pivot", "`relation` " ~ relation_sql ~ " has no values in "
            ~ pivot_names | join(", ") ~ " to pivot on (on_no_values='fail'); pass `values` to fix the output columns.") -}}
    {%- else -%}
        {%- do exceptions.warn("spark_query_catalog.pivot: `relation` " ~ relation_sql ~ " has no rows, so no values in "
            ~ pivot_names | join(", ") ~ " to pivot on: " ~ outcome ~ " (no pivoted columns). Pass `values` to fix"
            ~ " the output columns, or on_no_values='fail' to make this an error.") -%}
    {%- endif -%}
    {%- if keys | length == 0 -%}
        {#- No row keys either (group_by=[]): the rows the pivot would read, none of them. -#}
        {{- return("select *\nfrom " ~ relation_sql ~ "\nwhere false") -}}
    {%- endif -%}
    {{- return("select\n" ~ spark_query_catalog._sqc_list_lines(keys, 4) ~ "\nfrom " ~ relation_sql
        ~ "\ngroup by " ~ keys | join(", ")) -}}
{% endmacro %}
