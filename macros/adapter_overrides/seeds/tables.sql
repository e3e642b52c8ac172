{#- dbt's seed materialization creates (or empties) the table, then loads
    it. Here the load replaces the table in one statement instead (reading
    the column types once, there), so these only name the table in the
    seed's SQL. A seed with a header and no rows is never loaded: its empty
    table is replaced here, as dbt-spark does. -#}
{% macro spark__create_csv_table(model, agate_table) %}
    {%- if agate_table.rows | length > 0 -%}
        {{- return("/* " ~ this.render() ~ ": created with its rows by the statement below */") -}}
    {%- endif -%}
    {%- set column_override = model["config"].get("column_types", {}) -%}
    {%- set quote_columns = model["config"].get("quote_columns", None) -%}
    {%- set fields = [] -%}
    {%- for column_name in agate_table.column_names -%}
        {%- set kind = column_override.get(column_name, adapter.convert_type(agate_table, loop.index0)) -%}
        {%- do fields.append(adapter.quote_seed_column(column_name | string, quote_columns) ~ " " ~ kind) -%}
    {%- endfor -%}
    {%- set sql = "create table " ~ this.render() ~ " (" ~ fields | join(", ") ~ ") " ~ file_format_clause() -%}
    {%- do adapter.drop_relation(this.incorporate(type="table")) -%}
    {%- do spark_query_catalog._sqc_clear_orphaned_location(this, known_absent=true) -%}
    {%- do run_query(sql) -%}
    {{- return(sql) -}}
{% endmacro %}


{% macro spark__reset_csv_table(model, full_refresh, old_relation, agate_table) %}
    {{- return(spark_query_catalog.spark__create_csv_table(model, agate_table)) -}}
{% endmacro %}
