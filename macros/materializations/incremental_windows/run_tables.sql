{#-
    The tables and views a run keeps what it computes in, and the small
    pieces of SQL every statement of a run shares.
-#}


{#- Where a run keeps what it computes, one name per model (threads building
    several models on one Spark session never share one): the run's events,
    each state frame's anchors and results, and its heads (a temporary
    view).
    An incremental run writes its events, anchors and results (but the
    last state frame's, computed in the pending table's statement) as tables
    (<model>__spark_query_catalog_run_events, _run_anchors_<n>,
    _run_results_<n>), dropped at its end, because later statements read
    them (the anchors, one row per key, four times: measured, 1.5 s of a
    rows 1,000 run at 100 days computing them again): a cached temporary
    view would not do, as Spark 4.3 uses a cached view's data only where
    its plan matches again, and a view whose SQL has a WITH clause never
    matches inside a statement with one of its own (measured over the
    bench's 10M events: the pending table's CREATE computed the events
    and the results again, 15 s of a 40 s run). A full refresh reads its
    events once: a temporary view (`view`; so does an incremental run
    whose frames read them once: _sqc_window_stages). {events: the name
    statements read the events by; heads: the views' names; run_events,
    anchors, run_results: the relations of the run's tables, named the
    same whichever the run, so that a full refresh too can drop what a run
    that died left}. -#}
{% macro _sqc_window_view_names(relation, settings, incremental) %}
    {%- set base = "spark_query_catalog_windows__" ~ relation.schema ~ "__" ~ relation.identifier -%}
    {%- set run_events = relation.incorporate(
        path={"identifier": relation.identifier ~ "__spark_query_catalog_run_events"}, type="table") -%}
    {%- set names = {"events": run_events.render() if incremental else base, "view": base, "anchors": [],
        "heads": [], "run_events": run_events, "run_results": []} -%}
    {%- for state in settings.states -%}
        {%- set number = loop.index -%}
        {%- do names.heads.append(base ~ "__heads_" ~ number) -%}
        {%- for name, kind in [("anchors", "anchors"), ("run_results", "results")] -%}
            {%- do names[name].append(relation.incorporate(
                path={"identifier": relation.identifier ~ "__spark_query_catalog_run_" ~ kind ~ "_" ~ number},
                type="table")) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return(names) -}}
{% endmacro %}


{#- A table of the run's own (none of that name is there: see
    _sqc_clear_run_tables), known to dbt's relation cache from then on:
    rolling_select reads its columns with one DESCRIBE, not three
    statements. -#}
{% macro _sqc_create_run_table(relation, sql) %}
    {%- do run_query("create table " ~ relation ~ "\nusing parquet\nas\n" ~ sql) -%}
    {%- do adapter.cache_added(relation) -%}
{% endmacro %}


{#- Every table a run may write of its own (`views`: _sqc_window_view_names). -#}
{% macro _sqc_window_run_tables(views) %}
    {{- return([views.run_events] + views.anchors + views.run_results) -}}
{% endmacro %}


{#- What a run that died may have left: its tables (`views.run_events`,
    `views.run_results`), and the directories of those and of the `pending`
    table whose CREATE was killed. The pending table itself is applied, not
    dropped (incremental_windows.sql). -#}
{% macro _sqc_clear_run_tables(views, pending) %}
    {%- for run_table in spark_query_catalog._sqc_window_run_tables(views) -%}
        {%- do adapter.drop_relation(run_table) -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(run_table, known_absent=true) -%}
    {%- endfor -%}
    {%- do spark_query_catalog._sqc_clear_orphaned_location(pending, known_absent=true) -%}
{% endmacro %}


{#- `expression` moved by `seconds` (negative: earlier) as SQL. -#}
{% macro _sqc_time_shift(expression, seconds) %}
    {%- if seconds == 0 -%}
        {{- return(expression) -}}
    {%- endif -%}
    {%- set amount = (seconds | abs) | int if (seconds | abs) == ((seconds | abs) | int) else seconds | abs -%}
    {{- return(expression ~ (" - " if seconds < 0 else " + ") ~ "interval " ~ amount ~ " seconds") -}}
{% endmacro %}


{#- `left.key <=> right.key and ...` over the window keys (and more columns). -#}
{% macro _sqc_key_match(left, right, columns) %}
    {%- set match = [] -%}
    {%- for column in columns -%}
        {%- do match.append(left ~ "." ~ column ~ " <=> " ~ right ~ "." ~ column) -%}
    {%- endfor -%}
    {{- return(match | join("\n        and ")) -}}
{% endmacro %}


{#- The partition order of a ROWS frame. -#}
{% macro _sqc_window_row_order(settings) %}
    {{- return(([settings.order_by] + settings.event_keys) | join(", ")) -}}
{% endmacro %}
