{#-
    The SQL of incremental_windows, laid out like the public macros' SQL.

    Every run computes its windows with rolling_select over one temporary
    view, the run's events (_sqc_window_events_sql): all distinct events for
    a full refresh; for an incremental run, the new events and only the
    stored rows whose windows they change or whose frames those need, each
    with windows_write (whether its row is written). One further
    view per frame adds that frame's columns (rolling_select reads the
    types of the view before it).

    Which stored rows a run rewrites, per key of new events, with first_new
    and last_new the key's earliest and latest new event time:
      - every row between first_new and last_new;
      - RANGE frames reaching back B and forward F: the rows from
        first_new - F to last_new + B (their frames hold a new event);
      - ROWS frames reaching back b rows and forward f rows: the b stored rows
        after last_new and the f before first_new (their frames shift).
    What it reads besides: the rows those rows' frames hold (B, F of time
    around them; b rows before the earliest, f after the latest), where a
    frame that keeps its state (states.sql) counts as 1 row back: the
    stored row before the rewritten ones, whose state it starts from.
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


{#- What a run that died may have left: its tables (`views.run_events`,
    `views.run_results`), and the directories of those and of the `pending`
    table whose CREATE was killed. The pending table itself is applied, not
    dropped (incremental_windows.sql). -#}
{% macro _sqc_clear_run_tables(views, pending) %}
    {%- for run_table in [views.run_events] + views.anchors + views.run_results -%}
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


{#- CTEs new_events and new_keys: a run's new events, and per key the time
    of its first and last. -#}
{% macro _sqc_new_window_events_ctes(settings, events_view, bounds) %}
    {%- set keys = settings.key_columns | join(",\n        ") -%}
    {%- set new_events -%}
new_events as (
    select *
    from {{ events_view }}
    where
        {{ bounds.is_new }}
        and {{ settings.order_by }} is not null
)
    {%- endset -%}
    {%- set new_keys -%}
new_keys as (
    select
        {{ keys }},
        min({{ settings.order_by }}) as windows_first_new,
        max({{ settings.order_by }}) as windows_last_new
    from new_events
    group by
        {{ keys }}
)
    {%- endset -%}
    {{- return([new_events, new_keys]) -}}
{% endmacro %}


{#- The stored rows of the new events' keys from `where`, with their key's
    first_new and last_new: a CTE `name` over `keys` (a CTE of keys). -#}
{% macro _sqc_stored_rows_cte(name, settings, table, keys, where, broadcast) %}
    {%- set cte -%}
{{ name }} as (
    select{{ " /*+ broadcast(" ~ keys ~ ") */" if broadcast }}
        stored_events.*,
        {{ keys }}.windows_first_new,
        {{ keys }}.windows_last_new
    from {{ table.relation }} as stored_events
    inner join {{ keys }}
        on {{ spark_query_catalog._sqc_key_match("stored_events", keys, settings.key_columns) }}
    where
        {{ where | join("\n        and ") }}
)
    {%- endset -%}
    {{- return(cte) -}}
{% endmacro %}


{#-
    Over the stored rows of CTE `source` (one pass of `prefix`), for
    models with ROWS frames: CTEs
      <prefix>_ranks     rows_before (1 = the last stored row before the key's
                         first new event) and rows_after (1 = the first after
                         its last), for ROWS frames: both counted in the
                         frames' own order (rows_before as the rows before
                         first_new less those up to the row), so that the
                         pass sorts once
      <prefix>_rewrites  windows_rewrite: whether the row's windows
                         change
      <prefix>_reach     per key, the ranks and times of the rewritten rows,
                         how many stored rows before first_new the pass saw,
                         and the latest date it saw
-#}
{% macro _sqc_window_flags_ctes(settings, source, prefix) %}
    {%- set t = settings.order_by -%}
    {%- set partition = "partition by " ~ settings.key_columns | join(", ") -%}
    {%- set rewrite = [spark_query_catalog._sqc_range_rewrite(settings)] -%}
    {%- if settings.rows_forward > 0 -%}
        {%- do rewrite.append("windows_rows_before <= " ~ settings.rows_forward) -%}
    {%- endif -%}
    {%- if settings.rows_back > 0 -%}
        {%- do rewrite.append("windows_rows_after <= " ~ settings.rows_back) -%}
    {%- endif -%}
    {%- set ranks -%}
{{ prefix }}_ranks as (
    select
        *,
        case
            when {{ t }} < windows_first_new
                then
                    count_if({{ t }} < windows_first_new)
                        over (
                            {{ partition }}
                        )
                    - count_if({{ t }} < windows_first_new)
                        over (
                            {{ partition }}
                            order by {{ spark_query_catalog._sqc_window_row_order(settings) }}
                            rows between unbounded preceding and current row
                        )
                    + 1
        end as windows_rows_before,
        case
            when {{ t }} > windows_last_new
                then count_if({{ t }} > windows_last_new) over (
                    {{ partition }}
                    order by {{ spark_query_catalog._sqc_window_row_order(settings) }}
                    rows between unbounded preceding and current row
                )
        end as windows_rows_after
    from {{ source }}
)
    {%- endset -%}
    {%- set rewrites -%}
{{ prefix }}_rewrites as (
    select
        *,
        coalesce(
            {{ rewrite | join("\nor ") | indent(12) }},
            false
        ) as windows_rewrite
    from {{ prefix }}_ranks
)
    {%- endset -%}
    {%- set reach_columns = [] -%}
    {%- for side in ["before", "after"] -%}
        {%- do reach_columns.append("coalesce(\n    max(case when windows_rewrite then windows_rows_" ~ side ~ " end)\n        over ("
            ~ partition ~ "),\n    0\n) as windows_rewrite_" ~ side) -%}
    {%- endfor -%}
    {%- if settings.has_range -%}
        {%- do reach_columns.append(spark_query_catalog._sqc_time_shift("least(\n    "
            ~ spark_query_catalog._sqc_range_reach(settings)[0]
            ~ ",\n    min(case when windows_rewrite then " ~ t ~ " end)\n        over (" ~ partition ~ ")\n)",
            -settings.range_back) ~ " as windows_read_from") -%}
        {%- do reach_columns.append(spark_query_catalog._sqc_time_shift("greatest(\n    "
            ~ spark_query_catalog._sqc_range_reach(settings)[1]
            ~ ",\n    max(case when windows_rewrite then " ~ t ~ " end)\n        over (" ~ partition ~ ")\n)",
            settings.range_forward) ~ " as windows_read_to") -%}
    {%- endif -%}
    {%- do reach_columns.append("count(windows_rows_before)\n    over (" ~ partition ~ ") as windows_found_before") -%}
    {%- do reach_columns.append("max(spark_query_catalog_date)\n    over (" ~ partition ~ ") as windows_latest_date") -%}
    {%- set reach -%}
{{ prefix }}_reach as (
    select
        *,
{{ spark_query_catalog._sqc_list_lines(reach_columns | map("indent", 8) | list, 8) }}
    from {{ prefix }}_rewrites
)
    {%- endset -%}
    {{- return([ranks, rewrites, reach]) -}}
{% endmacro %}


{#- Which stored rows of a `prefix` pass a run reads: those it rewrites and
    those their frames (and the new events') hold. -#}
{% macro _sqc_window_read_condition(settings) %}
    {%- set read = [
        "windows_rewrite",
        "windows_rows_before <= windows_rewrite_before + " ~ settings.rows_read_back,
        "windows_rows_after <= windows_rewrite_after + " ~ settings.rows_forward
    ] -%}
    {%- if settings.has_range -%}
        {%- do read.append(settings.order_by ~ " between windows_read_from and windows_read_to") -%}
    {%- endif -%}
    {{- return(read | join("\n        or ")) -}}
{% endmacro %}


{#-
    CTEs ending in stored_reads: the stored rows a run reads, with
    windows_rewrite. `bounds`:
      probe_start   the first date read for every key of a new event
      older         for ROWS frames, the keys whose rows from probe_start
                    do not hold every row their frames need (short keys: new,
                    sparse or long unseen) are read before it too: 'all'
                    (no lower date), a date (from it), or none (not needed)
      last_date     the last date read (RANGE frames only; none: no bound)
-#}
{% macro _sqc_stored_reads_ctes(settings, table, bounds) %}
    {%- set t = settings.order_by -%}
    {%- set ctes = [spark_query_catalog._sqc_nearby_rows_cte(settings, table, bounds)] -%}
    {%- set source = "nearby_rows" -%}
    {%- if settings.has_rows and bounds.older is not none -%}
        {%- set stored_rows -%}
stored_rows as (
    select *
    from nearby_rows
    union all
    select *
    from older_rows
)
        {%- endset -%}
        {%- set ctes = ctes + spark_query_catalog._sqc_short_keys_ctes(settings, table, bounds) + [stored_rows] -%}
        {%- set source = "stored_rows" -%}
    {%- endif -%}
    {%- if not settings.has_rows -%}
        {#- RANGE frames only: a rewritten row lies within the frames' reach
            of first_new and last_new, and its frame within that reach of it. -#}
        {%- set stored_reads -%}
stored_reads as (
    select
        *,
        {{ spark_query_catalog._sqc_range_rewrite(settings) | indent(8) }} as windows_rewrite
    from nearby_rows
    where
        {{ t }} >= {{ spark_query_catalog._sqc_time_shift("windows_first_new", -(settings.range_forward + settings.range_back)) }}
        and {{ t }} <= {{ spark_query_catalog._sqc_time_shift("windows_last_new", settings.range_back + settings.range_forward) }}
)
        {%- endset -%}
        {{- return(ctes + [stored_reads]) -}}
    {%- endif -%}
    {%- set stored_reads -%}
stored_reads as (
    select *
    from stored_reach
    where
        {{ spark_query_catalog._sqc_window_read_condition(settings) }}
)
    {%- endset -%}
    {{- return(ctes + spark_query_catalog._sqc_window_flags_ctes(settings, source, "stored") + [stored_reads]) -}}
{% endmacro %}


{#- The stored rows of the new events' keys from probe_start (to last_date). -#}
{% macro _sqc_nearby_rows_cte(settings, table, bounds) %}
    {%- set nearby_where = ["stored_events.spark_query_catalog_date >= date '" ~ bounds.probe_start ~ "'"] -%}
    {%- if bounds.last_date is not none -%}
        {%- do nearby_where.append("stored_events.spark_query_catalog_date <= date '" ~ bounds.last_date ~ "'") -%}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_stored_rows_cte(
        "nearby_rows", settings, table, "new_keys", nearby_where, bounds.broadcast_new
    )) -}}
{% endmacro %}


{#- Whether a key's stored rows of a pass hold every row its frames need
    (over a pass's flags: each column it reads is the key's, on every row). -#}
{% macro _sqc_window_covered_sql(settings, bounds) %}
    {%- set covered = ["windows_found_before >= greatest(windows_rewrite_before, "
        ~ settings.rows_forward ~ ") + " ~ settings.rows_read_back] -%}
    {%- if settings.has_range -%}
        {%- do covered.append("to_date(windows_read_from) >= date '" ~ bounds.probe_margin ~ "'") -%}
    {%- endif -%}
    {{- return(covered | join("\n        and ")) -}}
{% endmacro %}


{#- For ROWS frames: the keys whose nearby rows do not hold every row their
    frames need (short_keys: new, sparse or long unseen), and their stored
    rows before probe_start (older_rows: from bounds.older on, unless it is
    'all'). Which keys are covered: after nearby_rows, from the nearby pass
    (its flags); or, given `run_events` (the run's events table, written
    from the nearby rows alone), from its rows' windows_covered. -#}
{% macro _sqc_short_keys_ctes(settings, table, bounds, run_events=none) %}
    {%- set keys = settings.key_columns | join(", ") -%}
    {%- set short_keys -%}
covered_keys as (
    select distinct {{ keys }}
    from {{ "nearby_reach" if run_events is none else run_events }}
    where
        {{ spark_query_catalog._sqc_window_covered_sql(settings, bounds) if run_events is none else "windows_covered" }}
),

short_keys as (
    select new_keys.*
    from new_keys
    left anti join covered_keys
        on {{ spark_query_catalog._sqc_key_match("new_keys", "covered_keys", settings.key_columns) }}
)
    {%- endset -%}
    {%- set older_where = ["stored_events.spark_query_catalog_date < date '" ~ bounds.probe_start ~ "'"] -%}
    {%- if bounds.older != "all" -%}
        {%- do older_where.append("stored_events.spark_query_catalog_date >= date '" ~ bounds.older ~ "'") -%}
    {%- endif -%}
    {%- set flags = spark_query_catalog._sqc_window_flags_ctes(settings, "nearby_rows", "nearby") if run_events is none else [] -%}
    {{- return(flags + [
        short_keys,
        spark_query_catalog._sqc_stored_rows_cte("older_rows", settings, table, "short_keys", older_where, bounds.broadcast_new)
    ]) -}}
{% endmacro %}


{#- A key's reach of its new events, [from, to] as SQL: the times whose
    RANGE frames hold a new event, from first_new less the reach forward to
    last_new plus the reach back. -#}
{% macro _sqc_range_reach(settings) %}
    {{- return([spark_query_catalog._sqc_time_shift("windows_first_new", -settings.range_forward),
        spark_query_catalog._sqc_time_shift("windows_last_new", settings.range_back)]) -}}
{% endmacro %}


{#- Whether a stored row lies where a RANGE frame of a new event's reaches. -#}
{% macro _sqc_range_rewrite(settings) %}
    {%- set t = settings.order_by -%}
    {%- set reach = spark_query_catalog._sqc_range_reach(settings) -%}
    {{- return("(\n    " ~ t ~ " >= " ~ reach[0] ~ "\n    and " ~ t ~ " <= " ~ reach[1] ~ "\n)") -}}
{% endmacro %}


{#-
    The query of the run's events view: every distinct event (a full
    refresh, `table` none), or the new events and the stored rows the run
    reads. Copies (same keys, event_key and time) are one event: a stored
    row before any new copy, then the first loaded; its
    spark_query_catalog_loaded_at is the latest load of any copy.
    The events are distributed by the keys: the copies' window and the
    frames' windows after it are all partitioned by them, so one shuffle
    serves every window (without it Spark shuffles by the copies' columns,
    then by the keys: measured, 0.2 s of a 1.7 s statement over 1M events).
-#}
{% macro _sqc_window_events_sql(settings, event_columns, table, events_view, bounds) %}
    {%- set t = settings.order_by -%}
    {%- set copies = (settings.key_columns + [t] + settings.event_keys) | join(", ") -%}
    {%- set ctes = [] -%}
    {%- set parts = [] -%}
    {%- set new_columns = event_columns + [
        settings.loaded_at ~ " as spark_query_catalog_loaded_at",
        "true as windows_write",
        "1 as windows_source"
    ] -%}
    {#- An incremental run carries each stored row's frame states (states.sql). -#}
    {%- set stored_states = [] -%}
    {%- set new_states = [] -%}
    {%- set carried = [] -%}
    {%- for state in settings.states if table is not none -%}
        {%- do stored_states.append(state.column ~ " as " ~ state.carried) -%}
        {%- do new_states.append("null as " ~ state.carried) -%}
        {%- do carried.append(state.carried) -%}
    {%- endfor -%}
    {#- Whether a row lies before its key's first new event (the anchors'). -#}
    {%- if settings.states and table is not none -%}
        {%- do stored_states.append(t ~ " < windows_first_new as windows_before") -%}
        {%- do new_states.append("false as windows_before") -%}
        {%- do carried.append("windows_before") -%}
    {%- endif -%}
    {#- With ROWS frames, what the run's question asks of its events
        (_sqc_window_rows_reads), from the stored rows' pass. -#}
    {%- if settings.has_rows and table is not none -%}
        {%- do stored_states.extend([
            "coalesce(\n            " ~ spark_query_catalog._sqc_window_covered_sql(settings, bounds) | replace("\n", "\n    ")
                ~ ",\n            false\n        ) as windows_covered",
            spark_query_catalog._sqc_window_halo_days_sql() | indent(8) ~ " as windows_halo_days"
        ]) -%}
        {%- do new_states.extend(["cast(null as boolean) as windows_covered", "cast(null as int) as windows_halo_days"]) -%}
        {%- do carried.extend(["windows_covered", "windows_halo_days"]) -%}
    {%- endif -%}
    {%- if table is none -%}
        {%- do parts.append("select\n" ~ spark_query_catalog._sqc_list_lines(new_columns, 8)
            ~ "\n    from " ~ events_view ~ "\n    where " ~ t ~ " is not null") -%}
    {%- else -%}
        {%- set ctes = spark_query_catalog._sqc_new_window_events_ctes(settings, events_view, bounds)
            + spark_query_catalog._sqc_stored_reads_ctes(settings, table, bounds) -%}
        {%- do parts.append("select\n" ~ spark_query_catalog._sqc_list_lines(event_columns + [
            "spark_query_catalog_loaded_at",
            "windows_rewrite as windows_write",
            "0 as windows_source"
        ] + stored_states, 8) ~ "\n    from stored_reads") -%}
        {%- do parts.append("select\n" ~ spark_query_catalog._sqc_list_lines(new_columns + new_states, 8) ~ "\n    from new_events") -%}
    {%- endif -%}
    {%- set window_events -%}
window_events as (
    {{ parts | join("\n    union all\n    ") }}
    {%- if settings.key_columns %}
    distribute by {{ settings.key_columns | join(", ") }}
    {%- endif %}
)
    {%- endset -%}
    {%- set event_copies -%}
event_copies as (
    select
        *,
        row_number() over (
            partition by {{ copies }}
            order by windows_source, spark_query_catalog_loaded_at
        ) as windows_copy,
        max(spark_query_catalog_loaded_at) over (
            partition by {{ copies }}
        ) as windows_last_loaded,
        bool_or(windows_write) over (
            partition by {{ copies }}
        ) as windows_any_write
    from window_events
)
    {%- endset -%}
with {{ (ctes + [window_events, event_copies]) | join(",\n\n") }}

select
{{ spark_query_catalog._sqc_list_lines(event_columns + [
    "windows_last_loaded as spark_query_catalog_loaded_at",
    "windows_any_write as windows_write"
] + carried, 4) }}
from event_copies
where windows_copy = 1
{%- endmacro %}


{#- The stored columns of a windows table, in order (spark_query_catalog_date last, apart). -#}
{% macro _sqc_window_table_columns(settings, event_columns) %}
    {{- return(event_columns + settings.aliases + settings.states | map(attribute="column") | list
        + ["spark_query_catalog_loaded_at"]) -}}
{% endmacro %}


{#- The frames' CTEs (_sqc_window_stages), each `name as (query)`, or
    where it has no name, CTEs of its own (a state frame's results). -#}
{% macro _sqc_window_stage_ctes_sql(stages) %}
    {%- set ctes = [] -%}
    {%- for cte in stages.ctes -%}
        {%- do ctes.append(cte.sql | trim if cte.name is none
            else cte.name ~ " as (\n" ~ cte.sql | trim | indent(4, first=true) ~ "\n)") -%}
    {%- endfor -%}
    {{- return(ctes | join(",\n\n")) -}}
{% endmacro %}


{#- The full refresh: every row, from the last frame's CTE. -#}
{% macro _sqc_create_windows_table_sql(relation, settings, event_columns, stages) %}
create table {{ relation }}
using parquet
options (partitionoverwritemode 'dynamic')
partitioned by (spark_query_catalog_date)
tblproperties ('spark_query_catalog.run' = 'finished')
as
with {{ spark_query_catalog._sqc_window_stage_ctes_sql(stages) }}

select
{{ spark_query_catalog._sqc_list_lines(spark_query_catalog._sqc_window_table_columns(settings, event_columns)
    + ["to_date(" ~ settings.order_by ~ ") as spark_query_catalog_date"], 4) }}
from {{ stages.last }}
{%- endmacro %}


{#- The dates of the partitions a run writes, sorted: those of the rows it
    writes, asked of its events table (or answered already, with its first
    state frame's anchors: stages.written_dates); or, where it wrote none
    (RANGE frames without state: _sqc_window_stages), each key's dates
    within the frames' reach of its new events, asked of the new events.
    Those hold every row written, and a date among them that holds none is
    written as it was. -#}
{% macro _sqc_window_written_dates(settings, views, stages, bounds) %}
    {%- set t = settings.order_by -%}
    {%- if stages.written_dates is defined and stages.written_dates is not none -%}
        {{- return(stages.written_dates) -}}
    {%- elif stages.tables -%}
        {%- set question = "select to_json(collect_set(cast(to_date(" ~ t ~ ") as string))) as dates\nfrom "
            ~ views.events ~ "\nwhere windows_write" -%}
    {%- else -%}
        {%- set reach = spark_query_catalog._sqc_range_reach(settings) -%}
        {%- set days = "sequence(\n    to_date(" ~ reach[0] ~ "),\n    to_date(" ~ reach[1] ~ ")\n)" -%}
        {#- One row a key and date, each task keeping its distinct dates:
            never every key's dates in one row. -#}
        {%- set question -%}
with {{ spark_query_catalog._sqc_new_window_events_ctes(settings, stages.events_view, bounds) | join(",\n\n") }},

reached_days as (
    select
        explode(
            {{ days | indent(12) }}
        ) as reached_day
    from new_keys
)

select to_json(collect_set(cast(reached_day as string))) as dates
from reached_days
        {%- endset -%}
    {%- endif -%}
    {{- return(fromjson(run_query(question).rows[0][0]) | sort) -}}
{% endmacro %}


{#- The pending table: the new content of every partition a run touches
    (the stored rows it keeps, the rows it writes). No partition is left
    empty (each holds a row written, or stored rows it keeps), so none has
    the marker row that incremental_sessions writes for one.
    The stored rows a run rewrites are, per key, one span in the frames'
    row order (time, then event key): the rows from first_new to last_new,
    widened by the RANGE reach and by the rows a ROWS frame shifts, each
    a span that holds [first_new, last_new] (see the top of this file). So
    the rows kept are those outside their key's span of written rows: a
    join with one row per key of new events (broadcast where the new
    events are), not with every row written. Where the run wrote no table
    of its own (RANGE frames without state: its frames are CTEs here), a
    key's span is its new events' reach, first_new - F to last_new + B:
    every stored row there is written (the top of this file). -#}
{% macro _sqc_create_windows_pending_sql(pending, settings, table, events_view_name, stages, bounds) %}
    {%- set t = settings.order_by -%}
    {%- set dates = [] -%}
    {%- for day in bounds.partitions -%}
        {%- do dates.append("date " ~ spark_query_catalog._sqc_string_literal(day)) -%}
    {%- endfor -%}
    {%- set kept_columns = [] -%}
    {%- for column in table.data_columns -%}
        {%- do kept_columns.append("stored_events." ~ column) -%}
    {%- endfor -%}
    {%- set order = spark_query_catalog._sqc_window_row_order(settings) -%}
    {%- set stored_order = [] -%}
    {%- for column in [t] + settings.event_keys -%}
        {%- do stored_order.append("stored_events." ~ column) -%}
    {%- endfor -%}
    {%- set reach = stages.tables == [] -%}
    {%- set match = [spark_query_catalog._sqc_key_match("stored_events", "written_spans", settings.key_columns),
        ("stored_events." ~ t if reach else "struct(" ~ stored_order | join(", ") ~ ")")
        ~ "\n        between written_spans.windows_written_from\n        and written_spans.windows_written_to"] -%}
    {%- set ctes = spark_query_catalog._sqc_new_window_events_ctes(settings, stages.events_view, bounds) if reach else [] -%}
    {%- if stages.ctes -%}
        {%- do ctes.append(spark_query_catalog._sqc_window_stage_ctes_sql(stages)) -%}
    {%- endif -%}
    {%- if reach -%}
        {#- Every stored row within its key's reach of the new events is written. -#}
        {%- set written_spans -%}
written_spans as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + [
    spark_query_catalog._sqc_range_reach(settings)[0] ~ " as windows_written_from",
    spark_query_catalog._sqc_range_reach(settings)[1] ~ " as windows_written_to"], 8) }}
    from new_keys
)
        {%- endset -%}
    {%- else -%}
        {%- set written_spans -%}
written_spans as (
    select
{{ spark_query_catalog._sqc_list_lines(settings.key_columns + [
    "min(struct(" ~ order ~ ")) as windows_written_from",
    "max(struct(" ~ order ~ ")) as windows_written_to"], 8) }}
    from {{ events_view_name }}
    where windows_write
    group by
{{ spark_query_catalog._sqc_list_lines(settings.key_columns, 8) }}
)
        {%- endset -%}
    {%- endif -%}
    {%- do ctes.append(written_spans) -%}
create table {{ pending }}
using parquet
as
with {{ ctes | join(",\n\n") }}

select{{ " /*+ broadcast(written_spans) */" if bounds.broadcast_new }}
{{ spark_query_catalog._sqc_list_lines(kept_columns + ["stored_events.spark_query_catalog_date", "false as spark_query_catalog_marker"], 4) }}
from {{ table.relation }} as stored_events
left anti join written_spans
    on
        {{ match | join("\n        and ") }}
where
    stored_events.spark_query_catalog_date in (
{{ spark_query_catalog._sqc_list_lines(dates, 8) }}
    )
union all
select
{{ spark_query_catalog._sqc_list_lines(table.data_columns
    + ["to_date(" ~ t ~ ") as spark_query_catalog_date", "false as spark_query_catalog_marker"], 4) }}
from {{ stages.last }}
where windows_write
{%- endmacro %}
