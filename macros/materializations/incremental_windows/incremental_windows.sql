{#-
    materialized='incremental_windows': one row per event with its window
    columns (rolling_select's aggregates over ROWS and RANGE frames), kept
    up to date from an append-only events source, exactly as a full rebuild
    would give, late, out-of-order and repeated events included.

    The model's SQL selects the events (every event ever loaded, copies
    included); its config (see config.sql) names the keys, the time, the
    windows, the event key and the load column.

    What a run does, one question per file of this folder:
      config.sql         reads and checks the model's config
      table.sql          the events' columns, the stored table, its watermark
      bounds.sql         the new events' span, for ROWS frames how far
                         back the keys of new events must be read, and the
                         dates written
      run_tables.sql     the run's own tables and views, and shared pieces
      reads.sql          which stored rows a run rewrites and reads
      reach.sql          how far into the stored rows it reaches
      events.sql         the run's events: new events and the rows read
      stages.sql         the frames over them, one CTE a frame
      states.sql         frames that keep their state (then state_anchors,
                         state_records, state_results)
      writes.sql         the full refresh's table, the pending table
    and, shared with incremental_sessions (../shared/): the model's keys
    (config.sql), the table's recorded state (relations.sql), the events
    view (events.sql), the pending table's apply (apply.sql) and the fault
    seam (faults.sql). How a run finds its rows: docs/incremental_windows.md.

    A full refresh (first run, --full-refresh) builds the table in one
    CREATE TABLE ... AS SELECT. Changing the windows or the events' columns
    needs one.

    An incremental run with new events writes tables of its own (the
    pending table, the run's events and results: run_tables.sql) and drops
    them at its end. The table property spark_query_catalog.run says
    whether one may be there: 'started' before the first is written,
    'finished' once the last is dropped (and on a full refresh's table).
    Only a run that finds it otherwise (a run died, or the table has no
    such property yet) drops them, and the directories of any whose CREATE was
    killed: the others write them straight away, seven to fifteen
    statements fewer.
-#}
{% materialization incremental_windows, adapter="spark" %}
    {%- set settings = spark_query_catalog._sqc_incremental_windows_config() -%}
    {%- set relations = spark_query_catalog._sqc_incremental_relations() -%}
    {%- set target_relation, pending = relations.target, relations.pending -%}
    {%- set existing, pending_existing = relations.existing, relations.pending_existing -%}

    {{ run_hooks(pre_hooks) }}

    {#- Everything is checked before the run creates anything. -#}
    {%- do spark_query_catalog._sqc_check_upstreams_finished("incremental_windows") -%}
    {%- set described = spark_query_catalog._sqc_window_event_columns(settings, sql) -%}
    {%- set event_columns = described | map(attribute="name") | list -%}
    {%- set settings = spark_query_catalog._sqc_window_states(settings, described, sql) -%}
    {%- set full_refresh = existing is none or should_full_refresh() or not existing.is_table -%}
    {%- set table = none if full_refresh else spark_query_catalog._sqc_window_table(target_relation, settings, event_columns) -%}
    {#- The model's SQL, the events, as a view that every statement names. -#}
    {%- set events_view = spark_query_catalog._sqc_events_view_name(target_relation) -%}
    {%- do run_query(spark_query_catalog._sqc_create_events_view_sql(events_view, sql)) -%}
    {%- set views = spark_query_catalog._sqc_window_view_names(target_relation, settings, not full_refresh) -%}
    {%- set temporary_views = [events_view] -%}
    {#- The tables of its own that this run wrote (an incremental run with new events). -#}
    {%- set run_tables = [] -%}
    {#- Whether the run ends by recording that it left no tables of its own. -#}
    {%- set finish = [] -%}

    {%- if full_refresh -%}
        {%- if pending_existing is not none -%}
            {%- do adapter.drop_relation(pending) -%}
        {%- endif -%}
        {%- if existing is not none -%}
            {%- if existing.is_table and spark_query_catalog._sqc_table_state(existing, ["run"]).run != "finished" -%}
                {%- do spark_query_catalog._sqc_clear_run_tables(views, pending) -%}
            {%- endif -%}
            {%- do adapter.drop_relation(existing) -%}
        {%- else -%}
            {#- A table dropped by hand after a run died leaves no record of
                that run, but may leave its tables: the next run would fail
                to create them. dbt's relation cache knows them (no query). -#}
            {%- for run_table in spark_query_catalog._sqc_window_run_tables(views)
                if adapter.get_relation(run_table.database, run_table.schema, run_table.identifier) is not none -%}
                {%- do adapter.drop_relation(run_table) -%}
            {%- endfor -%}
        {%- endif -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(target_relation) -%}
        {%- set stages = spark_query_catalog._sqc_window_stages(settings, event_columns, none, events_view, none, views) -%}
        {%- do temporary_views.extend(stages.views) -%}
        {%- call statement("main") -%}
            {{ spark_query_catalog._sqc_create_windows_table_sql(target_relation, settings, event_columns, stages) }}
        {%- endcall -%}
    {%- else -%}
        {#- A run that died after writing its pending table: finish it first. -#}
        {%- if pending_existing is not none -%}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending) -%}
        {%- endif -%}
        {#- A run that died (or a table that does not record runs yet): drop what it left. -#}
        {%- if table.state.run != "finished" -%}
            {%- do spark_query_catalog._sqc_clear_run_tables(views, pending) -%}
            {%- do finish.append(true) -%}
        {%- endif -%}
        {%- if table.state.watermark is none -%}
            {%- do spark_query_catalog._sqc_measure_watermark(table) -%}
        {%- endif -%}
        {%- set bounds = spark_query_catalog._sqc_window_bounds(settings, table, events_view) -%}
        {%- if bounds is none -%}
            {#- No new events: nothing to recompute, nothing to write. -#}
            {%- call statement("main") -%}
                select 0 as new_events
            {%- endcall -%}
        {%- else -%}
            {%- do spark_query_catalog._sqc_record_state(table, {"run": "started"}) -%}
            {%- do finish.append(true) -%}
            {%- set stages = spark_query_catalog._sqc_window_stages(settings, event_columns, table, events_view, bounds, views) -%}
            {%- do temporary_views.extend(stages.views) -%}
            {%- do run_tables.extend(stages.tables) -%}
            {%- set written_dates = spark_query_catalog._sqc_window_written_dates(settings, views, stages, bounds) -%}
            {%- call statement("main") -%}
                {{ spark_query_catalog._sqc_create_windows_pending_sql(pending, settings, table, views.events, stages, bounds,
                    written_dates) }}
            {%- endcall -%}
            {%- do spark_query_catalog._sqc_incremental_fault("incremental_windows", "pending") -%}
            {#- With span_end a day may lose all its rows: the apply asks which. -#}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending,
                none if settings.span_end else {"watermark": bounds.watermark, "dates": written_dates}) -%}
        {%- endif -%}
    {%- endif -%}

    {%- for view in temporary_views + views.heads -%}
        {%- do run_query("drop view if exists " ~ view) -%}
    {%- endfor -%}
    {%- for run_table in run_tables -%}
        {%- do adapter.drop_relation(run_table) -%}
    {%- endfor -%}
    {%- if finish -%}
        {%- do spark_query_catalog._sqc_record_state(table, {"run": "finished"}) -%}
    {%- endif -%}

    {{ run_hooks(post_hooks) }}
    {{ return({"relations": [target_relation]}) }}
{% endmaterialization %}
