{#-
    Tables that are never seen half-written, and reruns that converge after a
    crash, on Spark's built-in catalog with parquet.

    A CREATE TABLE ... AS SELECT writes its files under the table's default
    location and registers the table only once the write has committed, so a
    reader sees the old table, no table, or the whole new one. A driver killed
    during that statement (a Thrift server that dies, a session that is
    stopped) leaves the location's directory behind with no table, and Spark
    then refuses every later CREATE TABLE of that name
    (LOCATION_ALREADY_EXISTS). The seed loader, the create_table_as override
    and incremental_sessions clear it first, with SQL only: an empty probe
    table is pointed at the leftover directory and dropped, which deletes it.
    Nothing happens when the table is in the catalog: its directory is its own.
-#}

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
        path={"identifier": relation.identifier ~ "__spark_query_catalog_probe"}
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
