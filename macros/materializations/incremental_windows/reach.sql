{#-
    How far a run reaches into the stored rows: the rows it reads by
    counting (ROWS frames), the rows near the new events by time (RANGE
    frames), and the keys short of rows (reads.sql says which rows are
    rewritten and read).
-#}


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
        "nearby_rows", settings, table, "new_keys", nearby_where, bounds.broadcast_new, replaced=true
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
