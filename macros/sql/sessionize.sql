{#-
    sessionize(relation, partition_by, timestamp_column, gap, method='gaps_and_islands')

    A full `select` returning every input row (rows with a NULL time or a
    non-positive per-row gap are dropped, as session_window drops them) plus:
      session_id     md5 of the partition keys and session_start: stable
                     and deterministic, the same from both methods.
      session_start  time of the session's first row.
      session_end    latest `time + gap` of the session's rows.

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    Example:
        {{ sessionize(ref('events'), 'user_id', 'event_at', '30 minutes') }}
-#}
{% macro sessionize(relation, partition_by, timestamp_column, gap, method="gaps_and_islands") %}
    {{- return(adapter.dispatch("sessionize", "spark_query_catalog")(
        relation, partition_by, timestamp_column, gap, method
    )) -}}
{% endmacro %}


{% macro default__sessionize(relation, partition_by, timestamp_column, gap, method) %}
    {%- set parts = spark_query_catalog._sqc_session_parts(relation, partition_by, timestamp_column, gap, method, "sessionize") -%}
    {%- for name in ["session_id", "session_start", "session_end"] -%}
        {%- if spark_query_catalog._sqc_find_column(parts.columns, name) is not none -%}
            {{- spark_query_catalog._sqc_error("sessionize", "`relation` already has a column `" ~ name
                ~ "`, which sessionize adds; rename it first.") -}}
        {%- endif -%}
    {%- endfor -%}

    {%- if method == "session_window" -%}
        {%- set group_keys = parts.partition_keys + [spark_query_catalog._sqc_session_window_call(parts)] -%}
        {%- set lines = [
            "with sessionize_windows as (",
            "    select",
            "        " ~ spark_query_catalog._sqc_session_window_call(parts) ~ " as sessionize_window,",
            "        collect_list(struct(*)) as sessionize_rows",
            "    from " ~ parts.relation_sql,
            "    group by " ~ group_keys | join(", "),
            "),",
            "",
            "sessionize_rows as (",
            "    select",
            "        sessionize_row.*,",
            "        sessionize_windows.sessionize_window.start as session_start,",
            "        sessionize_windows.sessionize_window.end as session_end",
            "    from sessionize_windows",
            "        lateral view inline(sessionize_windows.sessionize_rows) sessionize_row",
            "),",
            "",
            spark_query_catalog._sqc_session_ids_cte(parts, "sessionize_rows"),
            "",
            spark_query_catalog._sqc_session_final_select([])
        ] -%}
        {{- return(lines | join("\n")) -}}
    {%- endif -%}

    {%- set session_keys = parts.partition_keys + ["sessionize_number"] -%}
    {%- set over = spark_query_catalog._sqc_over(["partition by " ~ session_keys | join(", ")], 12) -%}
    {%- set helpers = ["sessionize_is_new", "sessionize_number"] -%}
    {%- if parts.fixed_gap is none -%}
        {%- do helpers.append("sessionize_event_end") -%}
    {%- endif -%}
    {%- set ctes = spark_query_catalog._sqc_session_numbering_ctes(parts) -%}
    {%- do ctes.append("sessionize_bounds as (\n    select\n        *,\n        min(" ~ parts.time_sql ~ ")" ~ over
        ~ " as session_start,\n        " ~ spark_query_catalog._sqc_session_end_sql(parts, over) ~ " as session_end"
        ~ "\n    from sessionize_numbers\n)") -%}
    {%- do ctes.append(spark_query_catalog._sqc_session_ids_cte(parts, "sessionize_bounds")) -%}
    {%- set lines = [
        "with " ~ ctes | join(",\n\n"),
        "",
        spark_query_catalog._sqc_session_final_select(helpers)
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}
