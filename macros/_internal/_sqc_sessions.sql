{#-
    Shared by sessionize and session_windows.

    Semantics are those of Spark's session_window: rows are ordered by time
    within their partition; a row starts a new session when its time is after
    the end of the current session (the latest `time + gap` seen so far), so
    rows exactly `gap` apart stay in one session. Rows with a NULL time, and
    rows whose per-row gap is NULL, zero or negative, are dropped.
-#}

{#-
    The gap rule: a duration string of day-time units ('10 seconds',
    '1 hour 30 minutes'; _sqc_duration_units_text) is a fixed gap (_sqc_duration);
    anything else is a per-row SQL expression (a column name, a CASE, ...)
    that must give a string such as '5 minutes' or a calendar interval.
-#}

{% macro _sqc_session_methods() %}
    {{- return(["gaps_and_islands", "session_window"]) -}}
{% endmacro %}


{#- Checks the arguments and resolves them to SQL text. -#}
{% macro _sqc_session_parts(relation, partition_by, timestamp_column, gap, method, macro_name) %}
    {%- set relation_sql = spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set partition_names = spark_query_catalog._sqc_string_list(partition_by, macro_name, "partition_by") -%}
    {%- if timestamp_column is not string or timestamp_column | trim == "" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "timestamp_column", "a column name (string)", timestamp_column) -}}
    {%- endif -%}
    {%- if gap is not string or gap | trim == "" -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "gap",
            "a duration string such as '30 minutes', or a SQL expression giving one per row", gap) -}}
    {%- endif -%}
    {%- if method not in spark_query_catalog._sqc_session_methods() -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "method", "one of " ~ spark_query_catalog._sqc_repr(spark_query_catalog._sqc_session_methods()), method) -}}
    {%- endif -%}
    {%- set fixed_gap = spark_query_catalog._sqc_duration(gap, macro_name) -%}
    {%- if fixed_gap is not none and modules.re.search("[1-9]", fixed_gap) is none -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "gap", "a positive duration (rows more than `gap` apart start a new session)", gap) -}}
    {%- endif -%}

    {%- set columns = spark_query_catalog._sqc_columns(relation) -%}
    {%- set time_column = spark_query_catalog._sqc_column_sql(timestamp_column, columns, macro_name, "timestamp_column") -%}
    {%- set time_type = spark_query_catalog._sqc_key_type(time_column, columns) -%}
    {%- if time_type is not none and not (spark_query_catalog._sqc_is_temporal_type(time_type) or time_type == "string") -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "timestamp_column",
            "a timestamp, timestamp_ntz, date or string column", timestamp_column ~ " (" ~ time_type ~ ")") -}}
    {%- endif -%}
    {%- if time_type in ["string", "date"] -%}
        {%- set time_sql = "cast(" ~ time_column ~ " as timestamp)" -%}
    {%- else -%}
        {%- set time_sql = time_column -%}
    {%- endif -%}
    {%- set partition_keys = [] -%}
    {%- for name in partition_names -%}
        {%- do partition_keys.append(spark_query_catalog._sqc_key_sql(name, columns)) -%}
    {%- endfor -%}
    {%- if fixed_gap is none -%}
        {%- set gap_sql = spark_query_catalog._sqc_key_sql(gap, columns) -%}
        {#- session_window takes a string or a calendar interval per row (Spark
            refuses ANSI intervals and numbers); so do both methods here. -#}
        {%- set gap_type = spark_query_catalog._sqc_key_type(gap, columns) -%}
        {%- if gap_type is not none and gap_type != "interval"
            and spark_query_catalog._sqc_type_class(gap_type) != "string" -%}
            {{- spark_query_catalog._sqc_fail(macro_name, "gap",
                "a duration string such as '30 minutes', or a column or expression of type string (such as"
                ~ " '5 minutes') or interval (a calendar interval: cast(... as interval)), as Spark's"
                ~ " session_window takes", gap ~ " (" ~ gap_type ~ ")") -}}
        {%- endif -%}
    {%- else -%}
        {%- set gap_sql = none -%}
    {%- endif -%}
    {{- return({
        "relation_sql": relation_sql,
        "columns": columns,
        "partition_keys": partition_keys,
        "partition_clause": spark_query_catalog._sqc_partition_clause(partition_keys, macro_name),
        "time_sql": time_sql,
        "fixed_gap": fixed_gap,
        "gap_sql": gap_sql
    }) -}}
{% endmacro %}


{#- `partition by k order by t` (or just `order by t`). -#}
{% macro _sqc_session_window_spec(parts) %}
    {%- set clauses = [] -%}
    {%- if parts.partition_clause -%}
        {%- do clauses.append(parts.partition_clause) -%}
    {%- endif -%}
    {%- do clauses.append("order by " ~ parts.time_sql) -%}
    {{- return(clauses) -}}
{% endmacro %}


{#- " over (\n    clause\n    clause\n)" with the clauses `spaces` in and ")" 4 less. -#}
{% macro _sqc_over(clauses, spaces) %}
    {{- return(" over (\n" ~ spark_query_catalog._sqc_list_lines(clauses, spaces) | replace(",\n", "\n")
        ~ "\n" ~ " " * (spaces - 4) ~ ")") -}}
{% endmacro %}


{#- session_window(t, gap), for the session_window method. -#}
{% macro _sqc_session_window_call(parts) %}
    {%- if parts.fixed_gap is not none -%}
        {{- return("session_window(" ~ parts.time_sql ~ ", " ~ spark_query_catalog._sqc_string_literal(parts.fixed_gap) ~ ")") -}}
    {%- endif -%}
    {{- return("session_window(" ~ parts.time_sql ~ ", " ~ parts.gap_sql ~ ")") -}}
{% endmacro %}


{#- md5 of the partition keys and the session start: the same in both
    methods. For a select list indented by `spaces`: too long for one line
    of 80 characters, the md5 call is broken over three. -#}
{% macro _sqc_session_id_sql(parts, start_sql, spaces=4) %}
    {%- set start = start_sql if start_sql == "session_start" else start_sql ~ " as session_start" -%}
    {%- set json = "to_json(struct(" ~ (parts.partition_keys + [start]) | join(", ") ~ "))" -%}
    {%- set one_line = "md5(" ~ json ~ ") as session_id" -%}
    {%- if spaces + (one_line | length) + 1 <= 80 -%}
        {{- return(one_line) -}}
    {%- endif -%}
    {{- return("md5(\n" ~ " " * (spaces + 4) ~ json ~ "\n" ~ " " * spaces ~ ") as session_id") -}}
{% endmacro %}


{#- The end of a session in the gaps-and-islands method, as an aggregate or window input. -#}
{% macro _sqc_session_end_sql(parts, aggregate_over) %}
    {%- if parts.fixed_gap is not none -%}
        {{- return("max(" ~ parts.time_sql ~ ")" ~ aggregate_over ~ " + interval " ~ parts.fixed_gap) -}}
    {%- endif -%}
    {{- return("max(sessionize_event_end)" ~ aggregate_over) -}}
{% endmacro %}


{#-
    Gaps and islands: CTEs ending in `sessionize_numbers`, which holds every
    kept row plus `sessionize_number`, the running count of session starts
    within its partition. Fixed gaps compare each row with the previous one
    (lag); per-row gaps with the latest end so far (a running max).
-#}
{% macro _sqc_session_numbering_ctes(parts) %}
    {%- set spec = spark_query_catalog._sqc_session_window_spec(parts) -%}
    {%- set ctes = [] -%}
    {%- if parts.fixed_gap is not none -%}
        {%- set previous_end = "lag(" ~ parts.time_sql ~ ")" ~ spark_query_catalog._sqc_over(spec, 16)
            ~ " + interval " ~ parts.fixed_gap -%}
        {%- set flags_from = parts.relation_sql -%}
        {%- set flags_where = parts.time_sql ~ " is not null" -%}
    {%- else -%}
        {%- do ctes.append("sessionize_events as (\n    select\n        *,\n        "
            ~ parts.time_sql ~ " + cast(" ~ parts.gap_sql ~ " as interval) as sessionize_event_end"
            ~ "\n    from " ~ parts.relation_sql
            ~ "\n    where " ~ parts.time_sql ~ " is not null\n)") -%}
        {%- set previous_end = "max(sessionize_event_end)"
            ~ spark_query_catalog._sqc_over(spec + ["rows between unbounded preceding and 1 preceding"], 16) -%}
        {%- set flags_from = "sessionize_events" -%}
        {%- set flags_where = "sessionize_event_end > " ~ parts.time_sql -%}
    {%- endif -%}
    {%- do ctes.append("sessionize_flags as (\n    select\n        *,\n        coalesce(\n            "
        ~ parts.time_sql ~ " > " ~ previous_end ~ ",\n            true\n        ) as sessionize_is_new"
        ~ "\n    from " ~ flags_from ~ "\n    where " ~ flags_where ~ "\n)") -%}
    {%- do ctes.append("sessionize_numbers as (\n    select\n        *,\n        sum(cast(sessionize_is_new as int))"
        ~ spark_query_catalog._sqc_over(spec + ["rows between unbounded preceding and current row"], 12)
        ~ " as sessionize_number\n    from sessionize_flags\n)") -%}
    {{- return(ctes) -}}
{% endmacro %}


{#- One row per session by gaps and islands: the numbering CTEs, then the
    columns (keys, session_id, session_start, session_end, aggregates) of a
    select from sessionize_numbers grouped by `group_by`. -#}
{% macro _sqc_session_groups(parts, aggregate_sql) %}
    {%- set start_sql = "min(" ~ parts.time_sql ~ ")" -%}
    {{- return({
        "ctes": spark_query_catalog._sqc_session_numbering_ctes(parts),
        "columns": parts.partition_keys + [
            spark_query_catalog._sqc_session_id_sql(parts, start_sql),
            start_sql ~ " as session_start",
            spark_query_catalog._sqc_session_end_sql(parts, "") ~ " as session_end"
        ] + aggregate_sql,
        "group_by": (parts.partition_keys + ["sessionize_number"]) | join(", ")
    }) -}}
{% endmacro %}


{#- The CTE that adds session_id to the rows of `source`. -#}
{% macro _sqc_session_ids_cte(parts, source) %}
    {{- return("sessionize_ids as (\n    select\n        *,\n        "
        ~ spark_query_catalog._sqc_session_id_sql(parts, "session_start", 8)
        ~ "\n    from " ~ source ~ "\n)") -}}
{% endmacro %}


{#- sessionize's last select: every input column, then session_id,
    session_start and session_end, without the `helpers` columns. -#}
{% macro _sqc_session_final_select(helpers) %}
    {%- set dropped = helpers + ["session_id", "session_start", "session_end"] -%}
    {{- return("select\n    * except (\n" ~ spark_query_catalog._sqc_list_lines(dropped, 8)
        ~ "\n    ),\n    session_id,\n    session_start,\n    session_end\nfrom sessionize_ids") -}}
{% endmacro %}
