{#-
    spark__create_table_as, overriding dbt-spark's (opt-in: list this package
    before `dbt` in the `dbt` dispatch search order).

    What it changes: before a managed table is created with CREATE TABLE ...
    AS SELECT, a directory left at its location by an earlier CREATE TABLE
    that was killed is cleared (see _sqc_clear_orphaned_location). Spark
    refuses to create a table over such a directory (LOCATION_ALREADY_EXISTS),
    so without this a rerun after a crash fails until someone deletes it by
    hand. The statement that creates the table is dbt-spark's own.
-#}
{% macro spark__create_table_as(temporary, relation, compiled_code, language="sql") %}
    {%- if not temporary and language == "sql" and config.get("location_root") is none -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(relation) -%}
    {%- endif -%}
    {{- return(dbt.spark__create_table_as(temporary, relation, compiled_code, language)) -}}
{% endmacro %}
