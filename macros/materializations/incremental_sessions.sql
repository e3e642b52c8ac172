{#-
    materialized='incremental_sessions': one row per session, kept up to date
    from an append-only events source, exactly as a full rebuild would give.

    The model's SQL selects the events (every event ever loaded, duplicates
    included). Config:
      partition_by      key column(s) of a session (as session_windows)
      timestamp_column  the event time column
      gap               fixed ('30 minutes') or a per-row SQL expression
      aggregates        dict of alias to aggregate over a session's events
                        (columns in the order of the aliases: dbt does not
                        keep a config dict's order)
      event_key         column(s) identifying an event: copies are one event
      loaded_at         column that grows with every load (a batch id, a load
                        time): events with a larger value than the table has
                        seen are new
      broadcast_rows    up to how many new events, touched sessions a run
                        sends whole to every task instead of shuffling
                        (default 200000; 0 never)

    Like Spark's state store for streaming session windows, a run reads only
    the new events and the sessions they can touch: a new event at t with gap g
    touches the sessions of its key with session_start <= t + g and
    t <= session_end (it extends, merges or bridges them). Those sessions are
    recomputed from their events plus the new ones; every other session is
    left alone. Sessions are stored partitioned by session_date (the date of
    session_start), and only the partitions that held or receive a touched
    session are rewritten.

    The table keeps two facts about itself in table properties: the
    watermark (the largest loaded_at it holds) and the most days a session
    spans. Before writing, a run reads two small answers (the time span and
    dates of the new events, then the span and dates of the sessions they
    touch) and puts them into its SQL as literals. With them Spark skips whole
    files (parquet min/max statistics on the time and loaded_at columns) and
    session_date partitions instead of reading all events and all sessions;
    it is what keeps a run's cost near the size of the batch when events are
    appended in time order. A run with no new events writes nothing.

    A run is crash-safe with a write-ahead table: first the full new content
    of every affected partition is written in one CREATE TABLE ... AS SELECT
    to <model>__sqc_pending (all or nothing); then those partitions are
    overwritten from it (a dynamic-partition INSERT OVERWRITE), partitions
    left empty are dropped, the watermark is recorded, and the pending table
    is dropped. A run that
    finds a pending table first re-applies it: overwriting a partition with
    the same content twice is harmless, so a run that died at any step is
    repaired by the next, and no session is lost or counted twice. Readers
    during the crash window can see a partition missing (Spark replaces a
    partition by deleting it, then moving the new one in).

    A full refresh (first run, --full-refresh) builds the table in one
    CREATE TABLE ... AS SELECT. Changing the aggregates or the keys needs one.
-#}
{% materialization incremental_sessions, adapter="spark" %}
    {%- set settings = spark_query_catalog._sqc_incremental_sessions_config() -%}
    {%- set target_relation = this.incorporate(type="table") -%}
    {%- set pending = this.incorporate(path={"identifier": this.identifier ~ "__sqc_pending"}, type="table") -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set pending_existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=pending.identifier) -%}

    {{ run_hooks(pre_hooks) }}

    {%- if existing is none or should_full_refresh() or not existing.is_table -%}
        {%- if pending_existing is not none -%}
            {%- do adapter.drop_relation(pending) -%}
        {%- endif -%}
        {%- if existing is not none -%}
            {%- do adapter.drop_relation(existing) -%}
        {%- endif -%}
        {%- do spark_query_catalog._sqc_clear_orphaned_location(target_relation) -%}
        {%- call statement("main") -%}
create table {{ target_relation }}
using parquet
options (partitionOverwriteMode 'dynamic')
partitioned by (session_date)
as
{{ spark_query_catalog._sqc_sessions_of(settings, "sqc_source", sql) }}
        {%- endcall -%}
    {%- else -%}
        {#- The stored columns, read once per run. -#}
        {%- set stored = adapter.get_columns_in_relation(target_relation) -%}
        {%- set stored_names = stored | map(attribute="name") | map("lower") | list -%}
        {%- if "session_date" not in stored_names or "sqc_loaded_at" not in stored_names -%}
            {{- spark_query_catalog._sqc_error(
                "incremental_sessions",
                target_relation ~ " was not built by incremental_sessions (it has no session_date"
                ~ " and sqc_loaded_at columns): rebuild it with --full-refresh."
            ) -}}
        {%- endif -%}
        {%- set table = {
            "relation": target_relation,
            "data_columns": stored | map(attribute="name") | reject("equalto", "session_date") | list,
            "loaded_type": spark_query_catalog._sqc_find_column(stored, "sqc_loaded_at").data_type | lower,
            "state": spark_query_catalog._sqc_session_table_state(target_relation)
        } -%}
        {#- A run that died after writing its pending table: finish it first. -#}
        {%- if pending_existing is not none -%}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending) -%}
        {%- endif -%}
        {%- if table.state.watermark is none or table.state.session_days is none -%}
            {%- do spark_query_catalog._sqc_measure_session_table(table) -%}
        {%- endif -%}
        {%- set bounds = spark_query_catalog._sqc_incremental_bounds(settings, table, sql) -%}
        {%- if bounds is none -%}
            {#- No new events: nothing to recompute, nothing to write. -#}
            {%- call statement("main") -%}
select 0 as new_events
            {%- endcall -%}
        {%- else -%}
            {%- do spark_query_catalog._sqc_clear_orphaned_location(pending, known_absent=true) -%}
            {%- call statement("main") -%}
create table {{ pending }}
using parquet
as
{{ spark_query_catalog._sqc_pending_sql(settings, table, sql, bounds) }}
            {%- endcall -%}
            {%- if config.get("sqc_stop_after") == "pending" -%}
                {{- exceptions.raise_compiler_error("incremental_sessions: stopped after writing the pending table (sqc_stop_after, for tests)") -}}
            {%- endif -%}
            {%- do spark_query_catalog._sqc_apply_pending(table, pending, config.get("sqc_stop_after")) -%}
        {%- endif -%}
    {%- endif -%}

    {{ run_hooks(post_hooks) }}
    {{ return({"relations": [target_relation]}) }}
{% endmaterialization %}


{% macro _sqc_incremental_sessions_config() %}
    {%- set name = "incremental_sessions" -%}
    {%- set settings = {} -%}
    {%- for key in ["partition_by", "timestamp_column", "gap", "aggregates", "event_key", "loaded_at"] -%}
        {%- set value = config.get(key) -%}
        {%- if value is none and key != "aggregates" -%}
            {{- spark_query_catalog._sqc_fail(name, key, "set in the model's config (see macros/materializations/incremental_sessions.sql)", value) -}}
        {%- endif -%}
        {%- do settings.update({key: value}) -%}
    {%- endfor -%}
    {%- do settings.update({
        "key_columns": spark_query_catalog._sqc_string_list(settings.partition_by, name, "partition_by", allow_empty=false),
        "event_keys": spark_query_catalog._sqc_string_list(settings.event_key, name, "event_key", allow_empty=false)
    }) -%}
    {%- set broadcast_rows = config.get("broadcast_rows", 200000) -%}
    {%- if broadcast_rows is not number or broadcast_rows is sameas true or broadcast_rows is sameas false
        or broadcast_rows < 0 or broadcast_rows != broadcast_rows | int -%}
        {{- spark_query_catalog._sqc_fail(name, "broadcast_rows", "a whole number of rows, 0 or more (0: never broadcast)", broadcast_rows) -}}
    {%- endif -%}
    {%- do settings.update({"broadcast_rows": broadcast_rows}) -%}
    {%- for key in ["timestamp_column", "loaded_at", "gap"] -%}
        {%- if settings[key] is not string or settings[key] | trim == "" -%}
            {{- spark_query_catalog._sqc_fail(name, key, "a column name or SQL expression (string)", settings[key]) -}}
        {%- endif -%}
    {%- endfor -%}
    {%- set aggregates = settings.aggregates or {} -%}
    {%- if aggregates is not mapping -%}
        {{- spark_query_catalog._sqc_fail(name, "aggregates", "a dict of alias to aggregate", aggregates) -}}
    {%- endif -%}
    {#- dbt does not keep the order of a dict in a model's config from one
        parse to the next: the aggregate columns follow their aliases' order. -#}
    {%- set all_aggregates = {} -%}
    {%- for alias, expression in aggregates | dictsort -%}
        {%- do all_aggregates.update({alias: expression}) -%}
    {%- endfor -%}
    {%- do all_aggregates.update({"sqc_loaded_at": "max(sqc_loaded_at)"}) -%}
    {%- do settings.update({"all_aggregates": all_aggregates}) -%}
    {%- set fixed_gap = spark_query_catalog._sqc_fixed_gap(settings.gap) -%}
    {%- set reach = settings.timestamp_column ~ " + " ~ (
        "interval " ~ fixed_gap if fixed_gap is not none else "cast(" ~ settings.gap ~ " as interval)"
    ) -%}
    {%- do settings.update({"reach_sql": reach}) -%}
    {{- return(settings) -}}
{% endmacro %}


{#- Sessions (with session_date) of the deduplicated events of `events_sql`
    (the model's SQL, or the events a run recomputes), named `events_name`. -#}
{% macro _sqc_sessions_of(settings, events_name, events_sql) %}
    {%- set sessions = spark_query_catalog.session_windows(
        "sqc_events", settings.key_columns, settings.timestamp_column, settings.gap, settings.all_aggregates
    ) -%}
    {%- set copies = settings.event_keys | join(", ") -%}
select
    *,
    to_date(session_start) as session_date
from (
    with {{ events_name }} as (
        {{ events_sql | indent(8) }}
    ),

    sqc_copies as (
        select
            *,
            row_number() over (partition by {{ copies }} order by {{ settings.loaded_at }}) as sqc_copy,
            max({{ settings.loaded_at }}) over (partition by {{ copies }}) as sqc_loaded_at
        from {{ events_name }}
    ),

    sqc_events as (
        select * except (sqc_copy)
        from sqc_copies
        where sqc_copy = 1
    )

    select *
    from (
        {{ sessions | indent(8) }}
    ) as sqc_windows
) as sqc_sessions
{%- endmacro %}


{#-
    What the table knows of itself, in two table properties, so that a run
    need not read every session to learn it:
      sqc.watermark     the largest loaded_at in the table, as a SQL literal
                        (a timestamp as timestamp_micros(...): the same in
                        every session time zone)
      sqc.session_days  the most days a session spans (session_end's date
                        minus session_date): touched sessions start at most
                        that many days before the first new event
    Both are none until measured (a new table; an older one). A property may
    lag behind the table, never run ahead of it: the days are raised before
    the sessions that need them are written, the watermark after. A lagging
    watermark makes a run take some events as new again, which recomputes
    their sessions to the same result.
-#}
{% macro _sqc_session_table_state(relation) %}
    {%- set state = {"watermark": none, "session_days": none} -%}
    {%- for row in run_query("show tblproperties " ~ relation) -%}
        {%- if row[0] == "sqc.watermark" -%}
            {%- do state.update({"watermark": row[1]}) -%}
        {%- elif row[0] == "sqc.session_days" -%}
            {%- do state.update({"session_days": row[1] | int}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(state) -}}
{% endmacro %}


{#- The SQL text of a loaded_at value, read back with _sqc_loaded_literal. -#}
{% macro _sqc_loaded_text(expression, loaded_type) %}
    {%- if loaded_type == "timestamp" -%}
        {{- return("cast(unix_micros(" ~ expression ~ ") as string)") -}}
    {%- endif -%}
    {{- return("cast(" ~ expression ~ " as string)") -}}
{% endmacro %}


{% macro _sqc_loaded_literal(text, loaded_type) %}
    {%- if text is none -%}
        {{- return(none) -}}
    {%- elif loaded_type == "timestamp" -%}
        {{- return("timestamp_micros(" ~ text ~ ")") -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_typed_literal(text, loaded_type)) -}}
{% endmacro %}


{#- The most days a session spans, over the sessions of a query. -#}
{% macro _sqc_session_days_sql() %}
    {{- return("max(datediff(to_date(session_end), session_date))") -}}
{% endmacro %}


{#- Records what is known (a none is left unset) in the table and in `table.state`. -#}
{% macro _sqc_record_state(table, watermark=none, session_days=none) %}
    {%- set properties = [] -%}
    {%- if watermark is not none -%}
        {%- do properties.append("'sqc.watermark' = " ~ spark_query_catalog._sqc_string_literal(watermark)) -%}
        {%- do table.state.update({"watermark": watermark}) -%}
    {%- endif -%}
    {%- if session_days is not none -%}
        {%- do properties.append("'sqc.session_days' = '" ~ session_days ~ "'") -%}
        {%- do table.state.update({"session_days": session_days}) -%}
    {%- endif -%}
    {%- if properties -%}
        {%- do run_query("alter table " ~ table.relation ~ " set tblproperties (" ~ properties | join(", ") ~ ")") -%}
    {%- endif -%}
{% endmacro %}


{#- Reads the watermark and the session days from every stored session (a
    table built before they were kept, or just rebuilt). -#}
{% macro _sqc_measure_session_table(table) %}
    {%- set measured = run_query(
        "select " ~ spark_query_catalog._sqc_loaded_text("max(sqc_loaded_at)", table.loaded_type)
        ~ ", " ~ spark_query_catalog._sqc_session_days_sql() ~ " from " ~ table.relation
    ).rows[0] -%}
    {%- do spark_query_catalog._sqc_record_state(
        table,
        spark_query_catalog._sqc_loaded_literal(measured[0], table.loaded_type),
        measured[1]
    ) -%}
{% endmacro %}


{#- What a run works on, as literals, so that Spark can skip files and
    partitions (parquet min/max statistics, partition pruning) instead of
    reading all events and all sessions:
      is_new          the filter of the new events (loaded_at above the watermark)
      first_new       the earliest time of a new event
      last_reach      the latest time a new event reaches (its time + gap)
      touched_sessions  the SQL of the stored sessions the new events touch
      touched_start,
      touched_end     the span of those sessions (both none when there are none)
      partitions      the dates of those sessions and of the new events
      broadcast_new,
      broadcast_touched  whether the new events, the touched sessions are
                      few enough (broadcast_rows) to send to every task
                      instead of shuffling both sides of their joins
    none when there are no new events. -#}
{% macro _sqc_incremental_bounds(settings, table, events_sql) %}
    {%- set ts = settings.timestamp_column -%}
    {%- set watermark = table.state.watermark -%}
    {%- set is_new = settings.loaded_at ~ " > " ~ watermark if watermark is not none else "true" -%}
    {%- set new_events -%}
select
    count(*),
    cast(min({{ ts }}) as string),
    typeof(min({{ ts }})),
    cast(max({{ settings.reach_sql }}) as string),
    typeof(max({{ settings.reach_sql }})),
    cast(to_date(min({{ ts }})) as string),
    cast(to_date(max({{ settings.reach_sql }})) as string),
    to_json(collect_set(cast(to_date({{ ts }}) as string)))
from ({{ events_sql }}) as sqc_source
where {{ is_new }}
    {%- endset -%}
    {%- set new = run_query(new_events).rows[0] -%}
    {%- if new[0] == 0 or new[1] is none -%}
        {#- No new events, or none with a time (no session has one). -#}
        {{- return(none) -}}
    {%- endif -%}
    {#- Touched sessions start on or before the last reach's date, and no more
        than session_days before the first new event's. session_date is the
        date in the time zone of the run that wrote it: two days either way
        keep the bounds safe for runs in other time zones. -#}
    {%- set day = modules.datetime.timedelta(days=1) -%}
    {%- set first_date = modules.datetime.date.fromisoformat(new[5]) -%}
    {%- set last_date = modules.datetime.date.fromisoformat(new[6]) -%}
    {%- set bounds = {
        "is_new": is_new,
        "broadcast_new": new[0] <= settings.broadcast_rows,
        "first_new": spark_query_catalog._sqc_typed_literal(new[1], new[2]),
        "last_reach": spark_query_catalog._sqc_typed_literal(new[3], new[4]),
        "first_date": (first_date - day * (table.state.session_days + 2)) | string
            if table.state.session_days is not none else none,
        "last_date": (last_date + day * 2) | string
    } -%}
    {%- do bounds.update({"touched_sessions": spark_query_catalog._sqc_touched_sql(settings, table.relation, events_sql, bounds)}) -%}
    {%- set touched = run_query(
        "select cast(min(session_start) as string), cast(max(session_end) as string), "
        ~ "typeof(min(session_start)), to_json(collect_set(cast(session_date as string))), count(*) "
        ~ "from (" ~ bounds.touched_sessions ~ ") as sqc_touched"
    ).rows[0] -%}
    {#- A recomputed session is touched sessions and new events merged: it
        starts on the date of one of them. -#}
    {%- set dates = (fromjson(new[7]) + fromjson(touched[3])) | unique | sort -%}
    {%- do bounds.update({
        "touched_start": spark_query_catalog._sqc_typed_literal(touched[0], touched[2]) if touched[0] is not none else none,
        "touched_end": spark_query_catalog._sqc_typed_literal(touched[1], touched[2]) if touched[0] is not none else none,
        "partitions": dates,
        "broadcast_touched": touched[4] <= settings.broadcast_rows
    }) -%}
    {{- return(bounds) -}}
{% endmacro %}


{#- The stored sessions that the new events touch. The range filter on
    session_start and session_end follows from the join's conditions and
    lets Spark skip the files of every other day. -#}
{% macro _sqc_touched_sql(settings, target, events_sql, bounds) %}
    {%- set key_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do key_match.append("s." ~ key ~ " <=> n." ~ key) -%}
    {%- endfor -%}
select{{ " /*+ broadcast(n) */" if bounds.broadcast_new }}
    {%- for key in settings.key_columns %}
    s.{{ key }},
    {%- endfor %}
    s.session_id,
    s.session_start,
    s.session_end,
    s.session_date
from {{ target }} as s
left semi join (
    select
        *,
        {{ settings.reach_sql }} as sqc_reach
    from ({{ events_sql }}) as sqc_source
    where {{ bounds.is_new }}
) as n
    on {{ key_match | join(" and ") }}
    and s.session_start <= n.sqc_reach
    and n.{{ settings.timestamp_column }} <= s.session_end
where s.session_end >= {{ bounds.first_new }}
    and s.session_start <= {{ bounds.last_reach }}
    {%- if bounds.first_date is not none %}
    and s.session_date between date '{{ bounds.first_date }}' and date '{{ bounds.last_date }}'
    {%- else %}
    and s.session_date <= date '{{ bounds.last_date }}'
    {%- endif %}
{%- endmacro %}


{#- The new content of every partition a run touches, plus one sentinel row
    per such partition (so that a partition left empty is known).

    The events read: the new ones, and those inside a touched session (all
    between touched_start and touched_end). The partitions: the dates of the
    touched sessions and of the new events, given as literals. -#}
{% macro _sqc_pending_sql(settings, table, events_sql, bounds) %}
    {%- set ts = settings.timestamp_column -%}
    {%- set target = table.relation -%}
    {%- set data_columns = table.data_columns -%}
    {%- set event_match = [] -%}
    {%- for key in settings.key_columns -%}
        {%- do event_match.append("t." ~ key ~ " <=> e." ~ key) -%}
    {%- endfor -%}
    {%- set dates = [] -%}
    {%- for day in bounds.partitions -%}
        {%- do dates.append("date " ~ spark_query_catalog._sqc_string_literal(day)) -%}
    {%- endfor -%}
    {#- Two plain filters and a semi join, not `new or exists (...)`: Spark
        would keep that filter above its existence join and read every
        event; these it pushes down to the files. -#}
    {%- set candidate_events -%}
select *
from ({{ events_sql }}) as sqc_source
where {{ bounds.is_new }}
        {%- if bounds.touched_start is not none %}
union all
select{{ " /*+ broadcast(t) */" if bounds.broadcast_touched }} *
from (
    select *
    from ({{ events_sql }}) as sqc_source
    where ({{ bounds.is_new }}) is not true
        and {{ ts }} between {{ bounds.touched_start }} and {{ bounds.touched_end }}
) as e
left semi join sqc_touched as t
    on {{ event_match | join(" and ") }}
    and e.{{ ts }} between t.session_start and t.session_end
        {%- endif %}
    {%- endset -%}
with sqc_touched as (
    {{ bounds.touched_sessions | indent(4) }}
),

sqc_recomputed as (
    {{ spark_query_catalog._sqc_sessions_of(settings, "sqc_candidates", candidate_events) | indent(4) }}
)

select{{ " /*+ broadcast(t) */" if bounds.broadcast_touched }} {% for column in data_columns %}s.{{ column }}, {% endfor %}s.session_date, false as sqc_sentinel
from {{ target }} as s
left anti join sqc_touched as t
    on s.session_id = t.session_id
where s.session_date in ({{ dates | join(", ") }})
union all
select {{ data_columns | join(", ") }}, session_date, false as sqc_sentinel
from sqc_recomputed
union all
select {% for column in data_columns %}null as {{ column }}, {% endfor %}session_date, true as sqc_sentinel
from values {{ dates | join(", ") }} as sqc_partitions (session_date)
{%- endmacro %}


{#- Overwrite the pending partitions, drop the ones left empty, record the
    table's new state, drop the pending table. Each step can be repeated
    after a crash. -#}
{% macro _sqc_apply_pending(table, pending, stop_after=none) %}
    {%- set loaded = "max(max(sqc_loaded_at)) over ()" -%}
    {%- if table.state.watermark is not none -%}
        {%- set loaded = "greatest(" ~ loaded ~ ", " ~ table.state.watermark ~ ")" -%}
    {%- endif -%}
    {#- Per partition: whether it keeps any session; over all of them: the
        most days a session spans and the new watermark. -#}
    {%- set partitions = run_query(
        "select cast(session_date as string), bool_or(not sqc_sentinel), "
        ~ "max(" ~ spark_query_catalog._sqc_session_days_sql() ~ ") over (), "
        ~ spark_query_catalog._sqc_loaded_text(loaded, table.loaded_type)
        ~ " from " ~ pending ~ " group by session_date"
    ).rows -%}
    {%- set days = partitions[0][2] if partitions else none -%}
    {%- if days is not none and table.state.session_days is not none and days > table.state.session_days -%}
        {%- do spark_query_catalog._sqc_record_state(table, session_days=days) -%}
    {%- endif -%}
    {%- do run_query(
        "insert overwrite table " ~ table.relation ~ " partition (session_date) select "
        ~ table.data_columns | join(", ") ~ ", session_date from " ~ pending ~ " where not sqc_sentinel"
    ) -%}
    {%- if stop_after == "overwrite" -%}
        {{- exceptions.raise_compiler_error("incremental_sessions: stopped after the overwrite (sqc_stop_after, for tests)") -}}
    {%- endif -%}
    {%- set emptied = [] -%}
    {%- for row in partitions if not row[1] -%}
        {%- do emptied.append("partition (session_date = date'" ~ row[0] ~ "')") -%}
    {%- endfor -%}
    {%- if emptied -%}
        {%- do run_query("alter table " ~ table.relation ~ " drop if exists " ~ emptied | join(", ")) -%}
    {%- endif -%}
    {%- if partitions and table.state.watermark is not none -%}
        {%- do spark_query_catalog._sqc_record_state(
            table, watermark=spark_query_catalog._sqc_loaded_literal(partitions[0][3], table.loaded_type)
        ) -%}
    {%- endif -%}
    {%- do adapter.drop_relation(pending) -%}
{% endmacro %}
