{#-
    Aggregates, shared by pivot and session_windows: one expression (a
    string), a list of them, or a dict of alias to expression.
    Returns a list of {"sql": ..., "alias": ... or none}.
-#}
{% macro _sqc_aggregates(aggregates, macro_name) %}
    {%- set allowed = "an aggregate expression (string), a non-empty list of them,"
        ~ " or a non-empty dict of alias to expression" -%}
    {%- set result = [] -%}
    {%- if aggregates is string and aggregates | trim != "" -%}
        {%- do result.append({"sql": aggregates | trim, "alias": none}) -%}
    {%- elif aggregates is mapping and aggregates | length > 0 -%}
        {%- for alias, expression in aggregates.items() -%}
            {%- if alias is not string or alias | trim == ""
                or expression is not string or expression | trim == "" -%}
                {{- spark_query_catalog._sqc_fail(macro_name, "aggregates", allowed, aggregates) -}}
            {%- endif -%}
            {%- do result.append({"sql": expression | trim, "alias": alias}) -%}
        {%- endfor -%}
    {%- elif aggregates is iterable and aggregates is not string
        and aggregates is not mapping and aggregates | length > 0 -%}
        {%- for expression in aggregates -%}
            {%- if expression is not string or expression | trim == "" -%}
                {{- spark_query_catalog._sqc_fail(macro_name, "aggregates", allowed, aggregates) -}}
            {%- endif -%}
            {%- do result.append({"sql": expression | trim, "alias": none}) -%}
        {%- endfor -%}
    {%- else -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "aggregates", allowed, aggregates) -}}
    {%- endif -%}
    {{- return(result) -}}
{% endmacro %}


{% macro _sqc_aggregate_sql(aggregate) %}
    {%- if aggregate.alias is none -%}
        {{- return(aggregate.sql) -}}
    {%- endif -%}
    {{- return(aggregate.sql ~ " as " ~ spark_query_catalog._sqc_quote(aggregate.alias)) -}}
{% endmacro %}


{#-
    The relation columns an expression refers to: identifiers outside string
    literals that are not function names, matched against `columns`. When the
    columns are unknown, every such identifier that is not a SQL keyword.
-#}
{% macro _sqc_referenced_columns(expression, columns) %}
    {%- set keywords = spark_query_catalog._sqc_reserved_words() + [
        "bigint", "boolean", "date", "decimal", "double", "float", "int", "integer",
        "smallint", "string", "timestamp", "timestamp_ntz", "tinyint", "ignore",
        "respect", "filter", "within", "day", "days", "hour", "hours", "minute",
        "minutes", "second", "seconds", "month", "months", "year", "years", "week", "weeks"
    ] -%}
    {%- set text = modules.re.sub("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"", " ", expression) -%}
    {%- set found = [] -%}
    {%- for match in modules.re.finditer(
        "`((?:[^`]|``)+)`|(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])(\s*\()?", text
    ) -%}
        {%- if match.group(1) is not none -%}
            {%- set name = match.group(1).replace("``", "`") -%}
        {%- elif match.group(3) is none -%}
            {%- set name = match.group(2) -%}
        {%- else -%}
            {%- set name = none -%}
        {%- endif -%}
        {%- if name is not none -%}
            {%- if columns is not none -%}
                {%- set column = spark_query_catalog._sqc_find_column(columns, "`" ~ name.replace("`", "``") ~ "`") -%}
                {%- if column is not none and column.name not in found -%}
                    {%- do found.append(column.name) -%}
                {%- endif -%}
            {%- elif (name | lower) not in keywords and name not in found -%}
                {%- do found.append(name) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(found) -}}
{% endmacro %}
