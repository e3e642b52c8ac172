{#- How a seed's raw text becomes values: dbt's NULL rules, then one cast per column. -#}

{#-
    A value as dbt reads seeds: empty and 'null' are NULL, in any case and
    with any whitespace around them (dbt's reader strips tabs and newlines
    too, which Spark's trim does not).
-#}
{% macro _sqc_seed_value_sql(column) %}
    {{- return("case when lower(regexp_replace(" ~ column.alias ~ ", '(?U)^\\\\s+|\\\\s+$', ''))"
        ~ " in ('', 'null') then null else " ~ column.alias ~ " end") -}}
{% endmacro %}


{% macro _sqc_seed_cast_sql(column) %}
    {%- set value = spark_query_catalog._sqc_seed_value_sql(column) -%}
    {%- if column.type == "string" -%}
        {{- return(value) -}}
    {%- endif -%}
    {{- return("cast(" ~ value ~ " as " ~ column.type ~ ")") -}}
{% endmacro %}
