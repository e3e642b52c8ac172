{#-
    materialized='incremental_sessions': one row per session, kept up to date
    from an append-only events source, exactly as a full rebuild would give.

    The model's SQL selects the events (every event ever loaded, duplicates
    included); its config (see config.sql) names the session keys, the time,
    the gap, the aggregates, the event key and the load column.

    What a run does, one job per file of this folder:
      config.sql      reads and checks the model's config
      state.sql       the stored sessions' columns, and the most days a
                      session spans
      bounds.sql      two small questions: the new events' span, and the
                      stored sessions they touch
      statements.sql  the SQL: sessions of events (full refresh), touched
                      sessions, the new content of the touched partitions
    and, shared with incremental_windows (../shared/): the model's keys
    (config.sql), what the table records of itself (relations.sql: its
    watermark and table properties), the events view (events.sql), the
    pending table's apply, crash-safe (apply.sql), and where a test may
    stop a run halfway (faults.sql).

    A full refresh (first run, --full-refresh) builds the table in one
    CREATE TABLE ... AS SELECT. Changing the aggregates or the keys needs one.
-#}
{% materialization incremental_sessions, adapter="spark" %}
    {%- set settings = spark_query_catalog._sqc_incremental_sessions_config() -%}
    {%- set relations = spark_query_catalog._sqc_incremental_relations() -%}
    {%- set target_relation, pending = relations.target, relations.pending -%}
    {%- set existing, pending_existing = relations.existing, relations.pending_existing -%}

    {{ run_hooks(pre_hooks) }}

    {#- Everything is checked before the run creates anything. -#}
    {%- set full_refresh = existing is none or should_full_refresh() or not existing.is_table -%}
    {%- set table = none if full_refresh else spark_query_catalog._sqc_session_table(target_relation) -%}
    {%- if table is not none -%}
        {%- do spark_query_catalog._sqc_check_session_columns(table, settings) -%}
    {%- endif -%}
    {#- The model's SQL, the events, as a view that every statement names. -#}
    {%- set events_view = spark_query_catalog._sqc_events_view_name(target_relation) -%}
    {%- do run_query(spark_query_catalog._sqc_create_events_view_sql(events_view, sql)) -%}

    {%- if full_refresh -%}
        {%- if pending_existing is not none -%}
            {%- do adapter.drop_relation(pending) -%}
        {%- endif -%}
        {%- if existing is not none -%}
            {%- do adapter.drop_relation(existing) -%}
        {%- endif -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(target_relation) -%}
        {%- call statement("main") -%}
            {{ spark_query_catalog._sqc_create_sessions_table_sql(target_relation, settings, events_view) }}
        {%- endcall -%}
    {%- else -%}
        {#- A run that died after writing its pending table: finish it first. -#}
        {%- if pending_existing is not none -%}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending) -%}
        {%- endif -%}
        {%- if table.state.watermark is none or table.state.session_days is none -%}
            {%- do spark_query_catalog._sqc_measure_session_table(table) -%}
        {%- endif -%}
        {%- set bounds = spark_query_catalog._sqc_incremental_bounds(settings, table, events_view) -%}
        {%- if bounds is none -%}
            {#- No new events: nothing to recompute, nothing to write. -#}
            {%- call statement("main") -%}
                select 0 as new_events
            {%- endcall -%}
        {%- else -%}
            {%- do spark_query_catalog._sqc_clear_orphaned_location(pending, known_absent=true) -%}
            {%- call statement("main") -%}
                {{ spark_query_catalog._sqc_create_pending_sql(pending, settings, table, events_view, bounds) }}
            {%- endcall -%}
            {%- do spark_query_catalog._sqc_incremental_fault("incremental_sessions", "pending") -%}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending) -%}
        {%- endif -%}
    {%- endif -%}

    {%- do run_query("drop view if exists " ~ events_view) -%}

    {{ run_hooks(post_hooks) }}
    {{ return({"relations": [target_relation]}) }}
{% endmaterialization %}
