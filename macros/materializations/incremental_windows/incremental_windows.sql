{#-
    materialized='incremental_windows': one row per event with its window
    columns (rolling_select's aggregates over ROWS and RANGE frames), kept
    up to date from an append-only events source, exactly as a full rebuild
    would give, late, out-of-order and repeated events included.

    The model's SQL selects the events (every event ever loaded, copies
    included); its config (see config.sql) names the keys, the time, the
    windows, the event key and the load column.

    What a run does, one job per file of this folder (the table's state,
    the pending table and its apply are incremental_sessions'):
      config.sql      reads and checks the model's config
      bounds.sql      the new events' span, and for ROWS frames how far back
                      the keys of new events must be read
      statements.sql  the SQL: the run's events view, the full refresh, the
                      new content of the touched partitions

    A full refresh (first run, --full-refresh) builds the table in one
    CREATE TABLE ... AS SELECT. Changing the windows or the events' columns
    needs one.

    An incremental run with new events writes tables of its own (the
    pending table, the run's events and results: statements.sql) and drops
    them at its end. The table property spark_query_catalog.run says
    whether one may be there: 'started' before the first is written,
    'finished' once the last is dropped (and on a full refresh's table).
    Only a run that finds it otherwise (a run died, or the table is from
    before 0.5.1) drops them, and the directories of any whose CREATE was
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
    {%- set described = spark_query_catalog._sqc_window_event_columns(settings, sql) -%}
    {%- set event_columns = described | map(attribute="name") | list -%}
    {%- do spark_query_catalog._sqc_window_states(settings, described, sql) -%}
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
        {#- A run that died (or a table from before 0.5.1): drop what it left. -#}
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
            {%- do bounds.update({"partitions": spark_query_catalog._sqc_window_written_dates(settings, views, stages, bounds)}) -%}
            {%- call statement("main") -%}
                {{ spark_query_catalog._sqc_create_windows_pending_sql(pending, settings, table, views.events, stages, bounds) }}
            {%- endcall -%}
            {%- do spark_query_catalog._sqc_incremental_fault("incremental_windows", "pending") -%}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending, bounds) -%}
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


{#- The run's events, then one query per frame, each a CTE of the
    statement that writes the rows ({ctes: [{name, sql}], last, views: the
    temporary views made}): each adds its frame's columns with
    rolling_select over the CTE before it, the column types read from the
    events (they are its columns). CTEs, not one view per frame: Spark
    analyzes a view again wherever a view names it, so a chain of views
    costs the square of its length to plan (measured: 2 to 3.5 s a view
    for six frames over a few rows).

    A full refresh reads its events once: a temporary view (each of
    rolling_select's forms reads its source once: unit-tested). So does an
    incremental run whose frames are all RANGE frames that keep no state,
    in the pending table's statement itself: its frames are CTEs there,
    over the view, and the stored rows it keeps are those outside each
    key's reach of its new events (no table of the run's own, written then
    read twice: docs/measurements.md, 0.5.2). A run with ROWS frames or
    state frames writes its events to a table (_sqc_window_view_names says
    why not a cached view): the ROWS question is asked of it, or, with a
    state frame, of that frame's anchors, written first (bounds.sql, which
    may have the events and the anchors written again, further back); the
    state stages and the pending table read them again. Returns {ctes,
    last, views: the temporary views made, tables: the run's tables
    written, events_view: the model's events, where the pending table
    keeps rows by the new events' reach; written_dates: the dates written,
    where the anchors answered them}. -#}
{% macro _sqc_window_stages(settings, event_columns, table, events_view, bounds, views) %}
    {%- set events_sql = spark_query_catalog._sqc_window_events_sql(settings, event_columns, table, events_view, bounds) -%}
    {%- if table is none or not (settings.states or settings.has_rows) -%}
        {%- do run_query("create or replace temporary view " ~ views.view ~ " as\n" ~ events_sql) -%}
        {%- set ctes = spark_query_catalog._sqc_window_frame_ctes(settings, table, views.view, views) -%}
        {%- if table is none -%}
            {{- return({"ctes": ctes, "last": ctes[-1].name, "views": [views.view], "tables": []}) -}}
        {%- endif -%}
        {#- The frames are CTEs of the pending table's statement, which keeps
            the stored rows outside each key's reach of its new events. -#}
        {{- return({"ctes": ctes, "last": ctes[-1].name, "views": [views.view], "tables": [],
            "events_view": events_view}) -}}
    {%- endif -%}
    {%- do spark_query_catalog._sqc_create_run_table(views.run_events, events_sql) -%}
    {#- The first state frame's anchors, whose span answers the ROWS question
        and the dates written too: one question fewer each (0.1 s). -#}
    {%- set span = spark_query_catalog._sqc_window_anchors(settings, 0, views, true) if settings.states else none -%}
    {%- if settings.has_rows and spark_query_catalog._sqc_window_rows_reads(settings, table, events_view, bounds,
        views.run_events, span) -%}
        {#- Keys short of rows have older rows to read: the events again, with them. -#}
        {%- do adapter.drop_relation(views.run_events) -%}
        {%- do spark_query_catalog._sqc_create_run_table(views.run_events,
            spark_query_catalog._sqc_window_events_sql(settings, event_columns, table, events_view, bounds)) -%}
        {%- if span is not none -%}
            {%- do adapter.drop_relation(views.anchors[0]) -%}
            {%- set span = spark_query_catalog._sqc_window_anchors(settings, 0, views, true) -%}
        {%- endif -%}
    {%- endif -%}
    {%- set ctes = spark_query_catalog._sqc_window_frame_ctes(settings, table, views.run_events, views, bounds, span) -%}
    {#- The last state frame's results are a CTE of the pending table's statement. -#}
    {{- return({"ctes": ctes, "last": ctes[-1].name, "views": [], "tables": [views.run_events]
        + views.anchors + views.run_results[:-1], "written_dates": span.written_dates if span is not none else none}) -}}
{% endmacro %}


{#- A state frame's anchors (the `index`-th state's: states.sql), a table of
    the run's own, one row per key, which four statements read; and their
    span, asked of them: {from_date, to_date, last_date, most_written}, and
    with `questions`, {short_keys, halo_days, written_dates: sorted}. -#}
{% macro _sqc_window_anchors(settings, index, views, questions=false) %}
    {%- set state = settings.states[index] -%}
    {%- do spark_query_catalog._sqc_create_run_table(views.anchors[index],
        spark_query_catalog._sqc_window_anchors_sql(settings, state, views.events, questions)) -%}
    {%- set row = run_query(spark_query_catalog._sqc_window_anchor_span_sql(views.anchors[index].render(),
        questions)).rows[0] -%}
    {%- set span = {"from_date": row[0], "to_date": row[1], "last_date": row[2], "most_written": row[3]} -%}
    {%- if questions -%}
        {%- do span.update({"short_keys": row[4], "halo_days": row[5], "written_dates": fromjson(row[6] or "[]") | sort}) -%}
    {%- endif -%}
    {{- return(span) -}}
{% endmacro %}


{#- The frames' queries over `events` (a view's name, or the run's events
    table: its relation, whose columns dbt's cache knows), each over the
    one before it; a state frame's, in an incremental run, from its own
    stage. An incremental run computes its state frames last, so that the
    last one's results are the written rows themselves (the pending table
    reads them; every row before it there is read once, by it). -#}
{% macro _sqc_window_frame_ctes(settings, table, events, views, bounds=none, first_span=none) %}
    {%- set ctes = [] -%}
    {%- set frames = settings.frames if table is none
        else settings.frames | selectattr("state", "none") | list + settings.frames | rejectattr("state", "none") | list -%}
    {%- for frame in frames -%}
        {%- set source = ctes[-1].name if ctes else events -%}
        {%- set state = frame.state -%}
        {%- if state is not none and table is not none -%}
            {%- set query = spark_query_catalog._sqc_window_state_stage(settings, state, table, source, views, bounds,
                loop.last, first_span if settings.states.index(state) == 0 else none) -%}
            {%- if query is mapping -%}
                {#- The last frame's results: their CTEs, then the rows. -#}
                {%- do ctes.append({"name": none, "sql": query.ctes}) -%}
                {%- set query = query.select -%}
            {%- endif -%}
        {%- else -%}
            {%- set query = spark_query_catalog._sqc_rolling_select_from(
                source, events, frame.aggregates, frame.order_by, partition_by=settings.key_columns,
                frame=frame.frame, preceding=frame.preceding, following=frame.following, method=frame.method
            ) -%}
            {%- if state is not none -%}
                {#- A full refresh: the frame's state beside its columns. -#}
                {%- set query = spark_query_catalog._sqc_window_state_full_sql(settings, state, query) -%}
            {%- endif -%}
        {%- endif -%}
        {%- do ctes.append({"name": "windows_" ~ loop.index, "sql": query}) -%}
    {%- endfor -%}
    {{- return(ctes) -}}
{% endmacro %}


{#- An incremental run's stage for a state frame (states.sql): its anchors
    (a table of the run's own, one row per key, which four statements read),
    then its heads (read from the dates the anchors give; a second time,
    to each short key's anchor, when a key has fewer stored rows there
    than it needs), then the written rows' results, from the run's events
    table (with every column they read), written to a table of the run's
    own: each stage names the one before it once, and its plan stays
    small (`span`: the anchors' span, where they are written already:
    _sqc_window_stages). Then the stage's query. The `last` frame's
    results are its query (every written row, whole, with the frame's
    columns: from `source`, where a results table would be joined to it
    again: 0.5.3). -#}
{% macro _sqc_window_state_stage(settings, state, table, source, views, bounds, last=false, span=none) %}
    {%- set index = settings.states.index(state) -%}
    {%- set anchors, heads = views.anchors[index].render(), views.heads[index] -%}
    {%- if span is none -%}
        {%- set span = spark_query_catalog._sqc_window_anchors(settings, index, views) -%}
    {%- endif -%}
    {%- set to_date = span.to_date if span.to_date is none or span.to_date < span.last_date else span.last_date -%}
    {#- Whether a key writes more rows than the frame holds (states.sql). -#}
    {%- set shifted = span.most_written is none or span.most_written > state.width -%}
    {%- if span.from_date is not none -%}
        {%- do run_query("create or replace temporary view " ~ heads ~ " as\n" ~ spark_query_catalog._sqc_window_heads_sql(
            settings, state, table, anchors, span.from_date, to_date, bounds.broadcast_new)) -%}
        {%- set short = run_query(spark_query_catalog._sqc_window_short_keys_sql(
            settings, state, table, anchors, span.from_date, to_date, bounds.broadcast_new)).rows[0][0] -%}
        {%- if short > 0 -%}
            {%- do run_query("create or replace temporary view " ~ heads ~ " as\n" ~ spark_query_catalog._sqc_window_heads_sql(
                settings, state, table, anchors, span.from_date, span.last_date, bounds.broadcast_new)) -%}
        {%- endif -%}
    {%- else -%}
        {#- No key has an anchor: no heads. -#}
        {%- do run_query("create or replace temporary view " ~ heads ~ " as\n" ~ spark_query_catalog._sqc_window_heads_sql(
            settings, state, table, anchors, "1970-01-01", "1969-12-31", false)) -%}
    {%- endif -%}
    {%- if last -%}
        {#- Every column the pending table keeps but the keys and the frame's own. -#}
        {%- set own = settings.key_columns + state.outputs | map(attribute="alias") | list + [state.column] -%}
        {%- set own_names = [] -%}
        {%- for column in own -%}
            {%- do own_names.append(spark_query_catalog._sqc_unquote(column) | lower) -%}
        {%- endfor -%}
        {%- set carried = [] -%}
        {%- for column in table.data_columns if spark_query_catalog._sqc_unquote(column) | lower not in own_names -%}
            {%- do carried.append(column) -%}
        {%- endfor -%}
        {{- return(spark_query_catalog._sqc_window_state_results_sql(settings, state, source, anchors, heads, carried,
            shifted)) -}}
    {%- endif -%}
    {%- set results = views.run_results[index] -%}
    {%- do spark_query_catalog._sqc_create_run_table(results,
        spark_query_catalog._sqc_window_state_results_sql(settings, state, views.events, anchors, heads,
            shifted=shifted)) -%}
    {{- return(spark_query_catalog._sqc_window_state_stage_sql(settings, state, source, results.render())) -}}
{% endmacro %}


{#- The events' columns ({name, data_type}, names as the model's SQL gives
    them, asked with `describe query`), checked against the config. -#}
{% macro _sqc_window_event_columns(settings, events_sql) %}
    {%- set name = "incremental_windows" -%}
    {%- set columns = [] -%}
    {%- for row in run_query("describe query\n" ~ events_sql) -%}
        {%- do columns.append({"name": row[0], "data_type": row[1] | lower}) -%}
    {%- endfor -%}
    {%- set names = columns | map(attribute="name") | list -%}
    {%- set lower = names | map("lower") | list -%}
    {%- for setting in ["partition_by", "event_key", "order_by"] -%}
        {%- set wanted = settings.key_columns if setting == "partition_by"
            else settings.event_keys if setting == "event_key" else [settings.order_by] -%}
        {%- for column in wanted if spark_query_catalog._sqc_unquote(column) | lower not in lower -%}
            {{- spark_query_catalog._sqc_fail(name, setting, "columns of the model's events ("
                ~ names | join(", ") ~ ")", column) -}}
        {%- endfor -%}
    {%- endfor -%}
    {%- set order_type = spark_query_catalog._sqc_find_column(columns, spark_query_catalog._sqc_unquote(settings.order_by)).data_type | lower -%}
    {%- if order_type not in ["date", "timestamp", "timestamp_ntz"] -%}
        {{- spark_query_catalog._sqc_fail(name, "order_by", "a date or timestamp column (the table is partitioned"
            ~ " by its date); " ~ settings.order_by ~ " is " ~ order_type, settings.order_by) -}}
    {%- endif -%}
    {%- set internal = ["windows_first_new", "windows_last_new", "windows_rows_before", "windows_rows_after",
        "windows_rewrite", "windows_rewrite_before", "windows_rewrite_after", "windows_read_from", "windows_read_to",
        "windows_found_before", "windows_latest_date", "windows_write", "windows_source", "windows_copy",
        "windows_last_loaded", "windows_any_write", "windows_covered", "windows_halo_days", "windows_before"] -%}
    {%- for column in lower if column.startswith("spark_query_catalog_") or column.startswith("windows_state_")
        or column in internal
        or column in settings.aliases | map("lower") | list -%}
        {{- spark_query_catalog._sqc_error(name, "the model's events have a column " ~ column ~ ", which is the"
            ~ " name of " ~ ("a window in `windows`" if column in settings.aliases | map("lower") | list
            else "a column the table keeps for itself") ~ ": rename one of them.") -}}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}


{#- The stored table: its relation, its columns (read once per run) and its state. -#}
{% macro _sqc_window_table(relation, settings, event_columns) %}
    {%- set stored = adapter.get_columns_in_relation(relation) -%}
    {%- set stored_names = stored | map(attribute="name") | map("lower") | list -%}
    {%- if "spark_query_catalog_date" not in stored_names or "spark_query_catalog_loaded_at" not in stored_names -%}
        {{- spark_query_catalog._sqc_error(
            "incremental_windows",
            relation ~ " was not built by incremental_windows (it has no spark_query_catalog_date"
            ~ " and spark_query_catalog_loaded_at columns): rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
    {%- set data_columns = stored | map(attribute="name") | reject("equalto", "spark_query_catalog_date") | list -%}
    {%- set expected = spark_query_catalog._sqc_window_table_columns(settings, event_columns) | map("lower") | list -%}
    {%- if data_columns | map("lower") | list != expected -%}
        {{- spark_query_catalog._sqc_error(
            "incremental_windows",
            relation ~ " has the columns " ~ data_columns | map("lower") | join(", ") ~ ", where the model's events"
            ~ " and windows give " ~ expected | join(", ") ~ ": they changed since the table was built."
            ~ " Rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
    {{- return({
        "relation": relation,
        "data_columns": data_columns,
        "loaded_type": spark_query_catalog._sqc_find_column(stored, "spark_query_catalog_loaded_at").data_type | lower,
        "state": spark_query_catalog._sqc_table_state(relation, ["watermark", "halo_days", "run"]),
        "partition_column": "spark_query_catalog_date",
        "materialization": "incremental_windows"
    }) -}}
{% endmacro %}


{#- Reads the watermark from every stored row (a table just rebuilt). -#}
{% macro _sqc_measure_watermark(table) %}
    {%- set measured = run_query(
        "select " ~ spark_query_catalog._sqc_loaded_text("max(spark_query_catalog_loaded_at)", table.loaded_type)
        ~ " as watermark\nfrom " ~ table.relation
    ).rows[0] -%}
    {%- do spark_query_catalog._sqc_record_state(table, {
        "watermark": spark_query_catalog._sqc_loaded_literal(measured[0], table.loaded_type)
    }) -%}
{% endmacro %}
