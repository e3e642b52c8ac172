{#-
    Tables that are never seen half-written, and reruns that converge after a
    crash, on Spark's built-in catalog with parquet.

    dbt-spark's table materialization on parquet drops the old table and then
    runs one CREATE TABLE ... AS SELECT. Spark writes the new files under the
    table's default location and registers the table only once the write has
    committed, so a reader sees the old table, no table, or the whole new one.

    A driver killed during that CREATE TABLE (a Thrift server that dies, a
    session that is stopped) leaves the location's directory behind with no
    table, and Spark then refuses every later CREATE TABLE of that name
    (LOCATION_ALREADY_EXISTS). So before creating a managed table that is not
    in the catalog, its location is cleared with SQL only: an empty probe
    table is pointed at the leftover directory and dropped, which deletes it.
    Nothing happens when the table is in the catalog: its directory is its own.
-#}
{% macro spark__create_table_as(temporary, relation, compiled_code, language="sql") %}
    {%- if not temporary and language == "sql" and config.get("location_root") is none -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(relation) -%}
    {%- endif -%}
    {{- return(dbt.spark__create_table_as(temporary, relation, compiled_code, language)) -}}
{% endmacro %}


{#- Delete the default location of `relation` when no table of that name is
    in the catalog: a directory left by a CREATE TABLE that was killed. -#}
{% macro _sqc_clear_orphaned_location(relation, known_absent=false) %}
    {%- if not execute -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- if not known_absent -%}
        {%- set listed = run_query(
            "show tables in " ~ relation.schema ~ " like '" ~ relation.identifier ~ "'"
        ) -%}
        {%- if listed | length > 0 -%}
            {{- return(none) -}}
        {%- endif -%}
    {%- endif -%}
    {#- One probe per table name, so that threads building other tables of the
        schema do not share it; its own (empty) directory stays for reuse. A
        probe left by a run that died here points at the same place. -#}
    {%- set probe = relation.incorporate(
        path={"identifier": relation.identifier ~ "__sqc_probe"}
    ).render() -%}
    {%- do run_query("create table if not exists " ~ probe ~ " (probe int) using parquet") -%}
    {%- set location = [] -%}
    {%- for row in run_query("describe table extended " ~ probe) -%}
        {%- if row[0] == "Location" -%}
            {%- do location.append(row[1]) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set orphan = location[0].rsplit("/", 1)[0] ~ "/" ~ (relation.identifier | lower) -%}
    {%- do run_query("alter table " ~ probe ~ " set location '" ~ orphan ~ "'") -%}
    {%- do run_query("drop table " ~ probe) -%}
{% endmacro %}
