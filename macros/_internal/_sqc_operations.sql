{#- Operations for the tooling and tests (`dbt run-operation`). -#}

{% macro sqc_ping() %}
    {%- do run_query("select 1") -%}
{% endmacro %}


{% macro sqc_create_schema(schema) %}
    {%- do run_query("create schema if not exists " ~ spark_query_catalog._sqc_quote(schema)) -%}
{% endmacro %}


{% macro sqc_drop_schema(schema) %}
    {%- do run_query("drop schema if exists " ~ spark_query_catalog._sqc_quote(schema) ~ " cascade") -%}
{% endmacro %}
