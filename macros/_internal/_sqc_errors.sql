{#-
    Argument checking shared by every public macro.

    Every error names the macro and the argument, says what is allowed and
    shows what was given, e.g.
    "spark_query_catalog.pivot: argument `max_values` must be a positive
    integer. Got: -1"
-#}

{% macro _sqc_repr(value) %}
    {%- if value is none -%}
        {{- return("none") -}}
    {%- elif value is string -%}
        {{- return("'" ~ value ~ "'") -}}
    {%- elif spark_query_catalog._sqc_is_relation(value) -%}
        {{- return(value.render()) -}}
    {%- elif value is mapping -%}
        {%- set parts = [] -%}
        {%- for key, item in value.items() -%}
            {%- do parts.append(spark_query_catalog._sqc_repr(key) ~ ": " ~ spark_query_catalog._sqc_repr(item)) -%}
        {%- endfor -%}
        {{- return("{" ~ parts | join(", ") ~ "}") -}}
    {%- elif value is iterable -%}
        {%- set parts = [] -%}
        {%- for item in value -%}
            {%- do parts.append(spark_query_catalog._sqc_repr(item)) -%}
        {%- endfor -%}
        {{- return("[" ~ parts | join(", ") ~ "]") -}}
    {%- else -%}
        {{- return(value | string) -}}
    {%- endif -%}
{% endmacro %}


{% macro _sqc_fail(macro_name, argument, allowed, given) %}
    {{- exceptions.raise_compiler_error(
        "spark_query_catalog." ~ macro_name ~ ": argument `" ~ argument
        ~ "` must be " ~ allowed ~ ". Got: " ~ spark_query_catalog._sqc_repr(given)
    ) -}}
{% endmacro %}


{% macro _sqc_error(macro_name, message) %}
    {{- exceptions.raise_compiler_error(
        "spark_query_catalog." ~ macro_name ~ ": " ~ message
    ) -}}
{% endmacro %}


{#- A list of non-empty strings from none, one string or a list of strings. -#}
{% macro _sqc_string_list(value, macro_name, argument, allow_empty=true) %}
    {%- if value is none -%}
        {%- set items = [] -%}
    {%- elif value is string -%}
        {%- set items = [value] -%}
    {%- elif value is iterable and value is not mapping -%}
        {%- set items = value | list -%}
    {%- else -%}
        {{- spark_query_catalog._sqc_fail(macro_name, argument, "a string or a list of strings", value) -}}
    {%- endif -%}
    {%- for item in items -%}
        {%- if item is not string or item | trim == "" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, argument, "a string or a list of non-empty strings", value) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- if not allow_empty and items | length == 0 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, argument, "a column name or a non-empty list of them", value) -}}
    {%- endif -%}
    {{- return(items) -}}
{% endmacro %}


{#- A whole number, 0 or more (not a boolean, which Jinja counts as a number). -#}
{% macro _sqc_is_whole_number(value) %}
    {{- return(value is number and value is not boolean and value >= 0 and value == value | int) -}}
{% endmacro %}
