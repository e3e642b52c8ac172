{#-
    Writing a run's result (incremental_sessions and incremental_windows),
    crash-safe through a write-ahead table: the full
    new content of every affected partition is first written in one CREATE
    TABLE ... AS SELECT to <model>__spark_query_catalog_pending (all or nothing); then those
    partitions are overwritten from it (a dynamic-partition INSERT
    OVERWRITE), partitions left empty are dropped, the watermark is recorded,
    and the pending table is dropped. A run that finds a pending table first
    re-applies it: overwriting a partition with the same content twice is
    harmless, so a run that died at any step is repaired by the next, and no
    row is lost or counted twice. `table.partition_column` names the
    partitions (session_date, spark_query_catalog_date); a sessions table also
    keeps the most days a session spans (`table.state.session_days`). Readers during the crash window can see
    a partition missing (Spark replaces a partition by deleting it, then
    moving the new one in).

    `known` ({watermark, dates}), from the run that wrote the pending
    table, spares the question of its partitions: an incremental_windows run
    without span_end leaves none empty (each holds a row it wrote), and
    knows its watermark (its new events' latest loaded_at) and the dates it
    writes. A repair, and a run with span_end, ask.

    With the watermark, in the same statement, it records the one before
    and the dates whose rows the run may have changed (changed_dates): a
    model downstream that had read everything up to the one before reads
    those dates, and asks nothing (changed_rows).
-#}
{% macro _sqc_apply_pending(table, pending, known=none) %}
    {%- set loaded = "max(max(spark_query_catalog_loaded_at)) over ()" -%}
    {%- if table.state.watermark is not none -%}
        {%- set loaded = "greatest(" ~ loaded ~ ", " ~ table.state.watermark ~ ")" -%}
    {%- endif -%}
    {%- set column = table.partition_column -%}
    {%- set sessions = "session_days" in table.state -%}
    {#- Per partition: whether it keeps any row; over all of them: the new
        watermark (and the most days a session spans). -#}
    {%- set summary_columns = [
        "cast(" ~ column ~ " as string) as " ~ column,
        "bool_or(not spark_query_catalog_marker) as has_rows",
        spark_query_catalog._sqc_loaded_text(loaded, table.loaded_type) ~ " as watermark"
    ] -%}
    {%- if sessions -%}
        {%- do summary_columns.append("max(" ~ spark_query_catalog._sqc_session_days_sql() ~ ") over () as session_days") -%}
        {%- do summary_columns.append("cast(max(to_date(session_end)) as string) as last_day") -%}
    {%- endif -%}
    {%- set summary -%}
select
{{ spark_query_catalog._sqc_list_lines(summary_columns, 4) }}
from {{ pending }}
group by {{ column }}
    {%- endset -%}
    {%- set partitions = run_query(summary).rows if known is none else [] -%}
    {%- set days = partitions[0][3] if partitions and sessions else none -%}
    {%- if days is not none and table.state.session_days is not none and days > table.state.session_days -%}
        {%- do spark_query_catalog._sqc_record_state(table, {"session_days": days}) -%}
    {%- endif -%}
    {%- set overwrite -%}
insert overwrite table {{ table.relation }} partition ({{ column }})
select
    {{ (table.data_columns + [column]) | join(",\n    ") }}
from {{ pending }}
where not spark_query_catalog_marker
    {%- endset -%}
    {%- do run_query(overwrite) -%}
    {%- do spark_query_catalog._sqc_incremental_fault(table.materialization, "overwrite") -%}
    {%- set emptied = [] -%}
    {%- for row in partitions if not row[1] -%}
        {%- do emptied.append("partition (" ~ column ~ " = date '" ~ row[0] ~ "')") -%}
    {%- endfor -%}
    {%- if emptied -%}
        {%- do run_query("alter table " ~ table.relation ~ " drop if exists\n    " ~ emptied | join(",\n    ")) -%}
    {%- endif -%}
    {%- set watermark = none -%}
    {%- if known is not none -%}
        {%- set watermark = known.watermark -%}
    {%- elif partitions and table.state.watermark is not none -%}
        {%- set watermark = spark_query_catalog._sqc_loaded_literal(partitions[0][2], table.loaded_type) -%}
    {%- endif -%}
    {#- A repair of a run that had recorded its watermark records nothing again. -#}
    {%- if watermark is not none and watermark != table.state.watermark -%}
        {%- set dates = known.dates if known is not none else spark_query_catalog._sqc_pending_dates(partitions, sessions) -%}
        {%- do spark_query_catalog._sqc_record_state(table, {
            "watermark": watermark,
            "previous_watermark": table.state.watermark or "",
            "changed_dates": dates | join(",") if dates | length <= 200 else ""
        }) -%}
    {%- endif -%}
    {%- do adapter.drop_relation(pending) -%}
{% endmacro %}


{#- The dates of the pending table's partitions, sorted; a sessions table's
    each through its sessions' latest end (the summary's last_day), as
    changed_rows takes every day a changed session spans. -#}
{% macro _sqc_pending_dates(partitions, sessions) %}
    {%- set dates = [] -%}
    {%- for row in partitions -%}
        {%- set first = modules.datetime.date.fromisoformat(row[0]) -%}
        {%- set last = modules.datetime.date.fromisoformat(row[4]) if sessions and row[4] is not none else first -%}
        {%- for offset in range((last - first).days + 1) -%}
            {%- do dates.append((first + modules.datetime.timedelta(days=offset)).isoformat()) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(dates | unique | sort | list) -}}
{% endmacro %}
