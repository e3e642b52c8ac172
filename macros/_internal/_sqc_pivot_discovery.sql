{#- pivot's discovery: the distinct values of the pivot column(s), read when
    the model runs, as literals and labels. -#}

{#-
    The distinct values of the pivot column(s) in `relation`, sorted (NULL
    first): a list of rows, each a list of {text, label} (text none for
    NULL). Values travel as text with a prefix, so that no type inference
    can turn '007' into 7. An array or struct column (`nested`, a flag per
    column) travels as its JSON, which from_json turns back into the value,
    and is labelled as Spark's own PIVOT names its column: the value cast
    to a string ('[1, 2]', '{1, x}'). Discovery reads the relation's data
    even under `--empty`, so that the model keeps its columns. More than
    `max_values` is an error naming the column, the count found and the fix.
-#}
{% macro _sqc_pivot_value_rows(relation, pivot_sql, max_values, macro_name, nested=[]) %}
    {%- set source_sql = spark_query_catalog._sqc_unlimited_sql(relation) -%}
    {%- set select_sql = [] -%}
    {%- for column in pivot_sql -%}
        {%- if nested and nested[loop.index0] -%}
            {%- do select_sql.append("concat('v:', to_json(" ~ column ~ spark_query_catalog._sqc_json_options(", ") ~ ")) as value_" ~ loop.index0) -%}
        {%- else -%}
            {%- do select_sql.append("concat('v:', cast(" ~ column ~ " as string)) as value_" ~ loop.index0) -%}
        {%- endif -%}
        {%- do select_sql.append("cast(" ~ column ~ " as string) as label_" ~ loop.index0) -%}
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
        {%- set cells = [] -%}
        {%- for index in range(0, row | length, 2) -%}
            {%- set raw = row[index] -%}
            {%- do cells.append({
                "text": none if raw is none else (raw | string)[2:],
                "label": "null" if raw is none else row[index + 1] | string
            }) -%}
        {%- endfor -%}
        {%- do result.append(cells) -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#- to_json and from_json options that keep a timestamp's microseconds
    (their default format stops at milliseconds). -#}
{% macro _sqc_json_options(prefix) %}
    {{- return(prefix ~ "map('timestampFormat', 'yyyy-MM-dd HH:mm:ss.SSSSSSXXX',"
        ~ " 'timestampNTZFormat', 'yyyy-MM-dd HH:mm:ss.SSSSSS')") -}}
{% endmacro %}


{#- Whether a column's type is an array or a struct. -#}
{% macro _sqc_is_nested_type(data_type) %}
    {{- return(modules.re.match("(array|struct)\\s*<", data_type | lower | trim) is not none) -}}
{% endmacro %}


{#- Discovered values as pivot's literals and aliases (typed literals: a
    date value is `date '2024-01-01'`; an array or struct value is
    from_json of its JSON, with the column's type). Spark's PIVOT fails on
    a NULL array or struct value (an internal error: its analysis compares
    the values and takes none for NULL), so such a value is left out, with
    a warning: its rows are in no column. -#}
{% macro _sqc_discovered_pivot_values(relation, columns, pivot_names, pivot_sql, max_values, macro_name) %}
    {%- do spark_query_catalog._sqc_require_columns(columns, relation, macro_name, "Discovering pivot `values`",
        "pass `values` explicitly (a list, or pivot_values(...) of a table)") -%}
    {%- do spark_query_catalog._sqc_check_discoverable(columns, pivot_names, macro_name) -%}
    {%- set types = [] -%}
    {%- set nested = [] -%}
    {%- for name in pivot_names -%}
        {%- do types.append(spark_query_catalog._sqc_find_column(columns, name).data_type) -%}
        {%- do nested.append(spark_query_catalog._sqc_is_nested_type(types[-1])) -%}
    {%- endfor -%}
    {%- set result = [] -%}
    {%- set left_out = [] -%}
    {%- for row in spark_query_catalog._sqc_pivot_value_rows(relation, pivot_sql, max_values, macro_name, nested) -%}
        {%- set literals = [] -%}
        {%- set labels = [] -%}
        {%- for cell in row -%}
            {%- set data_type = types[loop.index0] -%}
            {%- if not nested[loop.index0] -%}
                {%- do literals.append(spark_query_catalog._sqc_typed_literal(cell.text, data_type)) -%}
            {%- elif cell.text is not none -%}
                {%- do literals.append("from_json(" ~ spark_query_catalog._sqc_string_literal(cell.text) ~ ", "
                    ~ spark_query_catalog._sqc_string_literal(data_type)
                    ~ (spark_query_catalog._sqc_json_options(", ") if "timestamp" in data_type | lower else "") ~ ")") -%}
            {%- endif -%}
            {%- do labels.append(cell.label) -%}
        {%- endfor -%}
        {%- if literals | length == row | length -%}
            {%- do result.append({"literals": literals, "alias": labels | join("_")}) -%}
        {%- else -%}
            {%- do left_out.append(row) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if left_out -%}
        {%- do exceptions.warn("spark_query_catalog." ~ macro_name ~ ": " ~ pivot_names | join(", ") ~ " of "
            ~ spark_query_catalog._sqc_relation_sql(relation, macro_name) ~ " is NULL in some rows, which are in"
            ~ " no pivoted column: Spark cannot pivot on a NULL array or struct. Pivot on coalesce(...) of it to"
            ~ " keep them.") -%}
    {%- endif -%}
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


{#- Discovered values become literals in the model's SQL: a pivot column
    whose values have no literal form is a compile error before any query,
    not a model that fails when it runs. Spark cannot pivot on maps (they
    do not compare) or variants; arrays and structs are written through
    JSON, which has no form for binary or interval fields. pivot_values
    returns values for `values=`, which are scalars. -#}
{% macro _sqc_check_discoverable(columns, pivot_names, macro_name) %}
    {%- for name in pivot_names -%}
        {%- set column = spark_query_catalog._sqc_find_column(columns, name) -%}
        {%- set data_type = column.data_type | lower if column is not none else "" -%}
        {%- set nested = spark_query_catalog._sqc_is_nested_type(data_type) -%}
        {%- if data_type.split("<")[0] in ["map", "variant"]
            or (nested and (macro_name == "pivot_values"
                or modules.re.search("[<:,]\\s*(map\\s*<|variant|binary|interval)\\b(?!\\s*:)", data_type))) -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "pivot_column",
                "a column whose values discovery can write as literals (numbers, strings, booleans, dates,"
                ~ " timestamps, decimals, binary, intervals"
                ~ ("; not arrays or structs: `values=` takes scalars, and pivot discovers those itself"
                    if macro_name == "pivot_values" else
                    ", and arrays and structs of all but binary and intervals")
                ~ "; not map or variant values: pivot on an expression of them, such as to_json("
                ~ column.name ~ ") or one of its fields)",
                column.name ~ " (" ~ column.data_type ~ ")") -}}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
