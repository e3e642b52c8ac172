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
                      ROWS frame needs are read before it, from this date
                      (none: no key needs to)
    none when there are no new events. The dates of the partitions a run
    writes are asked of its events view (incremental_windows.sql).
-#}
{% macro _sqc_window_bounds(settings, table, events_view) %}
    {%- set t = settings.order_by -%}
    {%- set watermark = table.state.watermark -%}
    {%- set is_new = settings.loaded_at ~ " > " ~ watermark if watermark is not none else "true" -%}
    {%- set summary -%}
select
    count(*) as new_events,
    cast(to_date(min({{ t }})) as string) as first_date,
    cast(to_date(max({{ t }})) as string) as last_date
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
        "older": "all" if settings.has_rows else none
    } -%}
    {%- if not settings.has_rows -%}
        {{- return(bounds) -}}
    {%- endif -%}
    {#- ROWS frames: how far back the keys short of rows must be read, and
        how far back the run read for the others (the next run's probe). -#}
    {%- set columns = [
        "cast(min(case when spark_query_catalog_date < date '" ~ bounds.probe_start
            ~ "' then spark_query_catalog_date end) as string) as older_from",
        "max(case when windows_latest_date >= date '" ~ bounds.probe_start
            ~ "' then datediff(to_date(windows_first_new), spark_query_catalog_date) end) as halo_days"
    ] -%}
    {%- set reads -%}
with {{ (spark_query_catalog._sqc_new_window_events_ctes(settings, events_view, bounds)
    + spark_query_catalog._sqc_stored_reads_ctes(settings, table, bounds)) | join(",\n\n") }}

select
{{ spark_query_catalog._sqc_list_lines(columns, 4) }}
from stored_reads
    {%- endset -%}
    {%- set read = run_query(reads).rows[0] -%}
    {%- do bounds.update({"older": read[0]}) -%}
    {%- if read[1] is not none -%}
        {%- do spark_query_catalog._sqc_record_state(table, {"halo_days": read[1]}) -%}
    {%- endif -%}
    {{- return(bounds) -}}
{% endmacro %}
