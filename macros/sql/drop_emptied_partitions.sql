{#-
    drop_emptied_partitions(relation)

    A pre-hook for a model that reads changed_rows(relation, groups=...) of
    an incremental_sessions table and is replaced day by day like it
    (dbt-spark's insert_overwrite, partitioned by session_date): it drops the
    model's partitions of the days the upstream no longer has.

    A late event can merge a session into the one before it, across
    midnight. When that was the last session of its day, the upstream drops
    the day's partition; the model's run reads the day (changed_rows gives
    every day a changed session spans) but finds no row in it, and
    insert_overwrite replaces only the partitions it writes: without the
    hook, the day's old rows would stay. Rows of an incremental_windows table
    never disappear (one row per event), so its downstream models need no
    hook; they may still call it.

    Two metadata questions (SHOW PARTITIONS of both tables), no data read.
    Returns the ALTER TABLE ... DROP statement, or nothing to run (not an
    incremental run, no emptied day).

    Example:
        {{ config(
            materialized='incremental',
            incremental_strategy='insert_overwrite',
            partition_by='session_date',
            pre_hook="{{ spark_query_catalog.drop_emptied_partitions(ref('sessions')) }}"
        ) }}
-#}
{% macro drop_emptied_partitions(relation) %}
    {{- return(adapter.dispatch("drop_emptied_partitions", "spark_query_catalog")(relation)) -}}
{% endmacro %}


{% macro default__drop_emptied_partitions(relation) %}
    {%- set macro_name = "drop_emptied_partitions" -%}
    {%- if not spark_query_catalog._sqc_is_relation(relation) -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "relation",
            "a Relation (ref() of a model built by incremental_sessions or incremental_windows)", relation) -}}
    {%- endif -%}
    {%- if not execute or not is_incremental() -%}
        {{- return("") -}}
    {%- endif -%}
    {%- set upstream = spark_query_catalog._sqc_describable(relation) -%}
    {%- set names = (spark_query_catalog._sqc_columns(upstream) or []) | map(attribute="name") | map("lower") | list -%}
    {%- set column = spark_query_catalog._sqc_marked_day_column(names) -%}
    {%- if column not in names or "spark_query_catalog_changed_at" not in names -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "relation",
            "a table built by incremental_sessions or incremental_windows", relation) -}}
    {%- endif -%}
    {%- set partition_by = config.get("partition_by") -%}
    {%- set own = [partition_by] if partition_by is string else (partition_by or []) | list -%}
    {%- if own | map("lower") | list != [column] -%}
        {{- spark_query_catalog._sqc_error(macro_name, this ~ " is partitioned by "
            ~ (own | join(", ") or "nothing") ~ ": the hook drops the partitions of days the upstream "
            ~ relation ~ " no longer has, so the model is partitioned like it, by " ~ column
            ~ " (partition_by='" ~ column ~ "').") -}}
    {%- endif -%}
    {#- Rows like session_date=2024-01-01: the days are compared. -#}
    {%- set kept = [] -%}
    {%- for row in run_query("show partitions " ~ upstream).rows -%}
        {%- do kept.append(row[0].split("=", 1)[1]) -%}
    {%- endfor -%}
    {%- set emptied = [] -%}
    {%- for row in run_query("show partitions " ~ this).rows -%}
        {%- set day = row[0].split("=", 1)[1] -%}
        {%- if day not in kept -%}
            {%- do emptied.append("partition (" ~ column ~ " = date '" ~ day ~ "')") -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not emptied -%}
        {{- return("") -}}
    {%- endif -%}
    {{- return("alter table " ~ this ~ " drop if exists\n    " ~ emptied | join(",\n    ")) -}}
{% endmacro %}
