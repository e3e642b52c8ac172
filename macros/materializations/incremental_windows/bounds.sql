{#-
    What a run of incremental_windows works on, as literals, so that Spark
    skips partitions instead of reading the whole table:
      is_new          the filter of the new events (loaded_at above the watermark)
      broadcast_new   whether the new events are few enough (broadcast_rows)
                      to send their keys to every task
      probe_start     the first date read for every key of a new event: the
                      new events' first date less the frames' reach (RANGE),
                      or less the days the last run needed (ROWS: the
                      table property spark_query_catalog.halo_days, 7 before
                      it is known), and two days for a change of time zone
      probe_margin    probe_start and two days: a RANGE reach from there on
                      is read whole
      last_date       the last date read (RANGE frames only)
      older           keys whose rows from probe_start fall short of what a
                      ROWS frame needs are read before it, from this date:
                      none here (no key needs to, or none has rows before
                      it). For ROWS frames, _sqc_window_rows_reads asks,
                      once the run's events are written; where it finds a
                      date, the run writes its events again with bounds
                      whose `older` is that date (stages.sql)
      watermark       the new events' latest loaded_at: the run's watermark
    none when there are no new events. The dates of the partitions a run
    writes are asked once its events are written (_sqc_window_written_dates).
-#}
{% macro _sqc_window_bounds(settings, table, events_view) %}
    {%- set t = settings.order_by -%}
    {%- set watermark = table.state.watermark -%}
    {%- set is_new = settings.loaded_at ~ " > " ~ watermark if watermark is not none else "true" -%}
    {%- set summary -%}
select
    count(*) as new_events,
    cast(to_date(min({{ t }})) as string) as first_date,
    cast(to_date(max({{ spark_query_catalog._sqc_window_span_end(settings) }})) as string) as last_date,
    {{ spark_query_catalog._sqc_loaded_text("max(" ~ settings.loaded_at ~ ")", table.loaded_type) }} as last_loaded
from {{ events_view }}
where
    {{ is_new }}
    and {{ t }} is not null
    {%- endset -%}
    {%- set new = run_query(summary).rows[0] -%}
    {%- if new[0] == 0 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set day = modules.datetime.timedelta(days=1) -%}
    {%- set first_date = modules.datetime.date.fromisoformat(new[1]) -%}
    {%- set last_date = modules.datetime.date.fromisoformat(new[2]) -%}
    {%- set range_days = ((settings.range_back + settings.range_forward) / 86400) | round(0, "ceil") | int -%}
    {%- set probe_days = range_days -%}
    {%- if settings.has_rows -%}
        {%- set probe_days = [range_days, table.state.halo_days if table.state.halo_days is not none else 7] | max -%}
    {%- endif -%}
    {%- set probe_start = first_date - day * (probe_days + 2) -%}
    {%- set bounds = {
        "is_new": is_new,
        "broadcast_new": new[0] <= settings.broadcast_rows,
        "probe_start": probe_start | string,
        "probe_margin": (probe_start + day * 2) | string,
        "last_date": none if settings.has_rows else (last_date + day * (range_days + 2)) | string,
        "older": none,
        "watermark": spark_query_catalog._sqc_loaded_literal(new[3], table.loaded_type)
    } -%}
    {{- return(bounds) -}}
{% endmacro %}


{#- ROWS frames, asked of the run's events table once it is written from
    the nearby rows alone (bounds.older none), so that their pass of ranks
    is made once, not again for a question before it: each stored row read
    there carries whether its key's nearby rows hold every row its frames
    need (windows_covered) and how many days before the key's first new
    event it lies (windows_halo_days). The question: how far back the run
    read (the next run's probe_start), and how many keys are short of rows
    there (none of their rows covered: a key seen for the first time has
    only new events). Where some are, whether they have stored rows before
    probe_start at all. Only then the last question, over those older
    rows too: from which date they are needed; the run then writes its
    events again, from there. Returns that date (none: it need not).
    `found` ({short_keys, halo_days}): the first question's answers, where
    the run has asked them already (of its first state frame's anchors:
    _sqc_window_anchors). The days back are recorded only when they
    changed. -#}
{% macro _sqc_window_rows_reads(settings, table, events_view, bounds, run_events, found=none) %}
    {#- First, of the run's events alone: how many keys are short, and how
        far back the run read. Most runs end there, no key short (0.09 s
        where the question over the older rows took 0.45 s: lab, rows
        1,000, replayed). -#}
    {%- if found is none -%}
        {%- set keys = settings.key_columns | join(",\n        ") -%}
        {%- set first -%}
with key_reads as (
    select
        {{ keys }},
        {{ spark_query_catalog._sqc_window_key_reads() | join(",\n        ") }}
    from {{ run_events }}
    group by
        {{ keys }}
)

select
{{ spark_query_catalog._sqc_list_lines(spark_query_catalog._sqc_window_key_read_answers(), 4) }}
from key_reads
        {%- endset -%}
        {%- set found = run_query(first).rows[0] -%}
    {%- else -%}
        {%- set found = [found.short_keys, found.halo_days] -%}
    {%- endif -%}
    {%- if found[0] == 0 -%}
        {%- do spark_query_catalog._sqc_record_halo_days(table, found[1]) -%}
        {{- return(none) -}}
    {%- endif -%}
    {#- Both questions read every older row of the short keys; how far back
        the run read is the first question's answer. -#}
    {%- set asking = dict(bounds, older="all") -%}
    {%- set question -%}
with {{ (spark_query_catalog._sqc_new_window_events_ctes(settings, events_view, asking)
    + spark_query_catalog._sqc_short_keys_ctes(settings, table, asking, run_events)) | join(",\n\n") }}

select count(*) as older_rows
from older_rows
    {%- endset -%}
    {%- set halo_days = found[1] -%}
    {%- set older = none -%}
    {%- if run_query(question).rows[0][0] > 0 -%}
        {%- set columns = [
            "cast(min(\n        case\n            when spark_query_catalog_date < date '" ~ bounds.probe_start
                ~ "'\n                then spark_query_catalog_date\n        end\n    ) as string) as older_from",
            "max(\n        case\n            when windows_latest_date >= date '" ~ bounds.probe_start
                ~ "'\n                then " ~ spark_query_catalog._sqc_window_halo_days_sql() | indent(16)
                ~ "\n        end\n    ) as halo_days"
        ] -%}
        {%- set reads -%}
with {{ (spark_query_catalog._sqc_new_window_events_ctes(settings, events_view, asking)
    + spark_query_catalog._sqc_stored_reads_ctes(settings, table, asking)) | join(",\n\n") }}

select
{{ spark_query_catalog._sqc_list_lines(columns, 4) }}
from stored_reads
        {%- endset -%}
        {%- set read = run_query(reads).rows[0] -%}
        {%- set older = read[0] -%}
        {%- set halo_days = read[1] -%}
    {%- endif -%}
    {%- do spark_query_catalog._sqc_record_halo_days(table, halo_days) -%}
    {{- return(older) -}}
{% endmacro %}


{#- What the ROWS question reads of each key's rows of the run's events
    (`prefix`: their alias and a dot): whether any of them holds every row
    its frames need, and how far back the run read for the key. -#}
{% macro _sqc_window_key_reads(prefix="") %}
    {{- return([
        "bool_or(coalesce(" ~ prefix ~ "windows_covered, false)) as windows_covered",
        "max(" ~ prefix ~ "windows_halo_days) as windows_halo_days"
    ]) -}}
{% endmacro %}


{#- The ROWS question's answers over its keys' reads (`prefix`: their
    alias and a dot): how many keys are short of rows, how far back the
    run read. -#}
{% macro _sqc_window_key_read_answers(prefix="") %}
    {{- return([
        "count_if(not " ~ prefix ~ "windows_covered) as short_keys",
        "max(" ~ prefix ~ "windows_halo_days) as halo_days"
    ]) -}}
{% endmacro %}


{#- Records how many days back a run read (the next run's probe), where
    the table keeps another number (none: nothing read back). -#}
{% macro _sqc_record_halo_days(table, halo_days) %}
    {%- if halo_days is not none and halo_days != table.state.halo_days -%}
        {%- do spark_query_catalog._sqc_record_state(table, {"halo_days": halo_days}) -%}
    {%- endif -%}
{% endmacro %}


{#- How many days a stored row lies before its key's first new event: how
    far back a run read for it (the table's halo_days, the next run's
    probe). -#}
{% macro _sqc_window_halo_days_sql() %}
    {{- return("datediff(\n    to_date(windows_first_new),\n    spark_query_catalog_date\n)") -}}
{% endmacro %}


{#- The dates of the partitions a run writes, sorted: those of the rows it
    writes, asked of its events table (or answered already, with its first
    state frame's anchors: stages.written_dates), and with span_end every
    day a new event's span touches (the days of the rows it replaces); or,
    where it wrote none (RANGE frames without state: _sqc_window_stages),
    each key's dates within the frames' reach of its new events (their
    spans included), asked of the new events. Those hold every row written
    or replaced, and a date among them that holds none is written as it
    was. -#}
{% macro _sqc_window_written_dates(settings, views, stages, bounds) %}
    {%- set t = settings.order_by -%}
    {%- set new_events = spark_query_catalog._sqc_new_window_events_ctes(settings, stages.events_view, bounds) -%}
    {%- if not stages.tables -%}
        {%- set reach = spark_query_catalog._sqc_range_reach(settings) -%}
        {%- set days = "sequence(\n    to_date(" ~ reach[0] ~ "),\n    to_date(" ~ reach[1] ~ ")\n)" -%}
        {#- One row a key and date, each task keeping its distinct dates:
            never every key's dates in one row. -#}
        {%- set question -%}
with {{ new_events | join(",\n\n") }},

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
        {{- return(fromjson(run_query(question).rows[0][0]) | sort) -}}
    {%- endif -%}
    {%- if stages.written_dates is not none -%}
        {%- set dates = stages.written_dates -%}
    {%- else -%}
        {%- set dates = fromjson(run_query("select to_json(collect_set(cast(to_date(" ~ t ~ ") as string))) as dates\nfrom "
            ~ views.events ~ "\nwhere windows_write").rows[0][0]) -%}
    {%- endif -%}
    {%- if settings.span_end is not none -%}
        {%- set spans -%}
with {{ new_events[0] }},

span_days as (
    select
        explode(
            sequence(
                to_date({{ t }}),
                to_date({{ spark_query_catalog._sqc_window_span_end(settings) }})
            )
        ) as span_day
    from new_events
)

select to_json(collect_set(cast(span_day as string))) as dates
from span_days
        {%- endset -%}
        {%- set dates = dates + fromjson(run_query(spans).rows[0][0]) -%}
    {%- endif -%}
    {{- return(dates | unique | sort) -}}
{% endmacro %}
