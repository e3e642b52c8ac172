{#-
    The run's stages: how the windows are computed over the run's events,
    one CTE a frame (rolling_select), and a frame that keeps its state from
    its anchors and heads (states.sql, state_anchors.sql,
    state_results.sql).
-#}


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
    read twice: docs/decisions/incremental_windows_0.5.md). A run with ROWS frames or
    state frames writes its events to a table (_sqc_window_view_names says
    why not a cached view): the ROWS question is asked of it, or, with a
    state frame, of that frame's anchors, written first (bounds.sql, which
    may have the events and the anchors written again, further back); the
    state stages and the pending table read them again. Returns {ctes,
    last, views: the temporary views made, tables: the run's tables
    written, events_view: the model's events in an incremental run (none
    in a full refresh), written_dates: the
    dates written where the anchors answered them (else none)}. -#}
{% macro _sqc_window_stages(settings, event_columns, table, events_view, bounds, views) %}
    {%- set events_sql = spark_query_catalog._sqc_window_events_sql(settings, event_columns, table, events_view, bounds) -%}
    {%- if table is none or not (settings.states or settings.has_rows) -%}
        {%- do run_query("create or replace temporary view " ~ views.view ~ " as\n" ~ events_sql) -%}
        {%- set ctes = spark_query_catalog._sqc_window_frame_ctes(settings, table, views.view, views) -%}
        {#- In an incremental run, the frames are CTEs of the pending table's
            statement, which keeps the stored rows outside each key's reach
            of its new events. -#}
        {{- return({"ctes": ctes, "last": ctes[-1].name, "views": [views.view], "tables": [],
            "events_view": none if table is none else events_view, "written_dates": none}) -}}
    {%- endif -%}
    {%- do spark_query_catalog._sqc_create_run_table(views.run_events, events_sql) -%}
    {#- The first state frame's anchors, whose span answers the ROWS question
        and the dates written too: one question fewer each. -#}
    {%- set span = spark_query_catalog._sqc_window_anchors(settings, 0, views, true) if settings.states else none -%}
    {%- set older = spark_query_catalog._sqc_window_rows_reads(settings, table, events_view, bounds, views.run_events,
        span) if settings.has_rows else none -%}
    {%- if older is not none -%}
        {#- Keys short of rows have older rows to read: the events again, with them. -#}
        {%- do adapter.drop_relation(views.run_events) -%}
        {%- do spark_query_catalog._sqc_create_run_table(views.run_events, spark_query_catalog._sqc_window_events_sql(
            settings, event_columns, table, events_view, dict(bounds, older=older))) -%}
        {%- if span is not none -%}
            {%- do adapter.drop_relation(views.anchors[0]) -%}
            {%- set span = spark_query_catalog._sqc_window_anchors(settings, 0, views, true) -%}
        {%- endif -%}
    {%- endif -%}
    {%- set ctes = spark_query_catalog._sqc_window_frame_ctes(settings, table, views.run_events, views, bounds, span) -%}
    {#- The last state frame's results are a CTE of the pending table's statement. -#}
    {{- return({"ctes": ctes, "last": ctes[-1].name, "views": [], "tables": [views.run_events]
        + views.anchors + views.run_results[:-1], "events_view": events_view,
        "written_dates": span.written_dates if span is not none else none}) -}}
{% endmacro %}


{#- A state frame's anchors (the `index`-th state's: states.sql), a table of
    the run's own, one row per key, which four statements read; and their
    span, asked of them: {from_date, to_date, last_date, most_written,
    short_keys, halo_days, written_dates: sorted}, the last three asked
    only with `questions` (else none). -#}
{% macro _sqc_window_anchors(settings, index, views, questions=false) %}
    {%- set state = settings.states[index] -%}
    {%- do spark_query_catalog._sqc_create_run_table(views.anchors[index],
        spark_query_catalog._sqc_window_anchors_sql(settings, state, views.events, questions)) -%}
    {%- set row = run_query(spark_query_catalog._sqc_window_anchor_span_sql(views.anchors[index].render(),
        questions)).rows[0] -%}
    {{- return({
        "from_date": row[0], "to_date": row[1], "last_date": row[2], "most_written": row[3],
        "short_keys": row[4] if questions else none,
        "halo_days": row[5] if questions else none,
        "written_dates": fromjson(row[6] or "[]") | sort if questions else none
    }) -}}
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
    again). -#}
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
        {%- for column in spark_query_catalog._sqc_window_computed_columns(table)
            + spark_query_catalog._sqc_window_was_columns(settings) | map(attribute="carried") | list
            if spark_query_catalog._sqc_unquote(column) | lower not in own_names -%}
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
