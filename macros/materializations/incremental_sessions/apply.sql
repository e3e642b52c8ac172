{#-
    Writing a run's result, crash-safe through a write-ahead table: the full
    new content of every affected partition is first written in one CREATE
    TABLE ... AS SELECT to <model>__spark_query_catalog_pending (all or nothing); then those
    partitions are overwritten from it (a dynamic-partition INSERT
    OVERWRITE), partitions left empty are dropped, the watermark is recorded,
    and the pending table is dropped. A run that finds a pending table first
    re-applies it: overwriting a partition with the same content twice is
    harmless, so a run that died at any step is repaired by the next, and no
    session is lost or counted twice. Readers during the crash window can see
    a partition missing (Spark replaces a partition by deleting it, then
    moving the new one in).
-#}
{% macro _sqc_apply_pending(table, pending) %}
    {%- set loaded = "max(max(spark_query_catalog_loaded_at)) over ()" -%}
    {%- if table.state.watermark is not none -%}
        {%- set loaded = "greatest(" ~ loaded ~ ", " ~ table.state.watermark ~ ")" -%}
    {%- endif -%}
    {#- Per partition: whether it keeps any session; over all of them: the
        most days a session spans and the new watermark. -#}
    {%- set summary -%}
select
    cast(session_date as string) as session_date,
    bool_or(not spark_query_catalog_marker) as has_sessions,
    max({{ spark_query_catalog._sqc_session_days_sql() }}) over () as session_days,
    {{ spark_query_catalog._sqc_loaded_text(loaded, table.loaded_type) }} as watermark
from {{ pending }}
group by session_date
    {%- endset -%}
    {%- set partitions = run_query(summary).rows -%}
    {%- set days = partitions[0][2] if partitions else none -%}
    {%- if days is not none and table.state.session_days is not none and days > table.state.session_days -%}
        {%- do spark_query_catalog._sqc_record_state(table, session_days=days) -%}
    {%- endif -%}
    {%- set overwrite -%}
insert overwrite table {{ table.relation }} partition (session_date)
select
    {{ (table.data_columns + ["session_date"]) | join(",\n    ") }}
from {{ pending }}
where not spark_query_catalog_marker
    {%- endset -%}
    {%- do run_query(overwrite) -%}
    {%- do spark_query_catalog._sqc_incremental_fault("overwrite") -%}
    {%- set emptied = [] -%}
    {%- for row in partitions if not row[1] -%}
        {%- do emptied.append("partition (session_date = date '" ~ row[0] ~ "')") -%}
    {%- endfor -%}
    {%- if emptied -%}
        {%- do run_query("alter table " ~ table.relation ~ " drop if exists\n    " ~ emptied | join(",\n    ")) -%}
    {%- endif -%}
    {%- if partitions and table.state.watermark is not none -%}
        {%- do spark_query_catalog._sqc_record_state(
            table, watermark=spark_query_catalog._sqc_loaded_literal(partitions[0][3], table.loaded_type)
        ) -%}
    {%- endif -%}
    {%- do adapter.drop_relation(pending) -%}
{% endmacro %}
