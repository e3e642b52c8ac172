{#- pivot's values: given by the caller, or discovered from the data. -#}

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


{#-
    The distinct values of the pivot column(s) in `relation`, sorted (NULL
    first): a list of rows, each a list of texts (none for NULL). Values
    travel as text with a prefix, so that no type inference can turn '007'
    into 7. Discovery reads the relation's data even under `--empty`, so
    that the model keeps its columns. More than `max_values` is an error
    naming the column, the count found and the fix.
-#}
{% macro _sqc_pivot_value_rows(relation, pivot_sql, max_values, macro_name) %}
    {%- set source_sql = spark_query_catalog._sqc_unlimited_sql(relation) -%}
    {%- set select_sql = [] -%}
    {%- for column in pivot_sql -%}
        {%- do select_sql.append("concat('v:', cast(" ~ column ~ " as string)) as value_" ~ loop.index0) -%}
    {%- endfor -%}
    {%- set query -%}
select {{ select_sql | join(", ") }}
from (select distinct {{ pivot_sql | join(", ") }} from {{ source_sql }}) as pivot_values
order by {{ pivot_sql | join(", ") }}
limit {{ max_values + 1 }}
    {%- endset -%}
    {%- set rows = run_query(query).rows -%}
    {%- if rows | length > max_values -%}
        {%- set count_query -%}
select count(*) from (select distinct {{ pivot_sql | join(", ") }} from {{ source_sql }}) as pivot_values
        {%- endset -%}
        {%- set found = run_query(count_query).columns[0].values()[0] -%}
        {{- spark_query_catalog._sqc_error(macro_name,
            "the pivot column " ~ pivot_sql | join(", ") ~ " of " ~ source_sql
            ~ " has " ~ found ~ " distinct values, more than `max_values` (" ~ max_values ~ ")."
            ~ " If this is intended, raise `max_values` to at least " ~ found
            ~ ", or pass the wanted `values` explicitly.") -}}
    {%- endif -%}
    {%- set result = [] -%}
    {%- for row in rows -%}
        {%- set texts = [] -%}
        {%- for raw in row -%}
            {%- do texts.append(none if raw is none else (raw | string)[2:]) -%}
        {%- endfor -%}
        {%- do result.append(texts) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#- Discovered values as pivot's literals and aliases (typed literals: a
    date value is `date '2024-01-01'`). -#}
{% macro _sqc_discovered_pivot_values(relation, columns, pivot_names, pivot_sql, max_values, macro_name) %}
    {%- do spark_query_catalog._sqc_require_columns(columns, relation, macro_name, "Discovering pivot `values`",
        "pass `values` explicitly (a list, or pivot_values(...) of a table)") -%}
    {%- do spark_query_catalog._sqc_check_discoverable(columns, pivot_names, macro_name) -%}
    {%- set result = [] -%}
    {%- for row in spark_query_catalog._sqc_pivot_value_rows(relation, pivot_sql, max_values, macro_name) -%}
        {%- set literals = [] -%}
        {%- set labels = [] -%}
        {%- for name in pivot_names -%}
            {%- set text = row[loop.index0] -%}
            {%- set data_type = spark_query_catalog._sqc_find_column(columns, name).data_type -%}
            {%- do literals.append(spark_query_catalog._sqc_typed_literal(text, data_type)) -%}
            {%- do labels.append("null" if text is none else text) -%}
        {%- endfor -%}
        {%- do result.append({"literals": literals, "alias": labels | join("_")}) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#- A discovered value as pivot_values returns it: strings as text, integers
    and booleans as themselves, anything else as its text. -#}
{% macro _sqc_python_value(text, data_type) %}
    {%- set kind = spark_query_catalog._sqc_type_class(data_type) -%}
    {%- if text is none -%}
        {{- return(none) -}}
    {%- elif kind == "integral" -%}
        {{- return(text | int) -}}
    {%- elif kind == "boolean" -%}
        {{- return(text | lower == "true") -}}
    {%- endif -%}
    {{- return(text) -}}
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


{#- Discovered values become literals in the model's SQL: a pivot column
    whose values have no literal form (array, struct, map, variant) is a
    compile error before any query, not a model that fails when it runs. -#}
{% macro _sqc_check_discoverable(columns, pivot_names, macro_name) %}
    {%- for name in pivot_names -%}
        {%- set column = spark_query_catalog._sqc_find_column(columns, name) -%}
        {%- if column is not none and column.data_type.split("<")[0] in ["array", "struct", "map", "variant"] -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "pivot_column",
                "a column whose values discovery can write as literals (numbers, strings, booleans, dates,"
                ~ " timestamps, decimals, binary, intervals; not array, struct, map or variant values: pivot on"
                ~ " an expression of them, such as to_json(" ~ column.name ~ ") or one of its fields)",
                column.name ~ " (" ~ column.data_type ~ ")") -}}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
