{#-
    session_windows(relation, partition_by, timestamp_column, gap, aggregates,
                    method='gaps_and_islands')

    A full `select` with one row per session: the partition keys, session_id,
    session_start, session_end and the aggregates. Sessions are exactly those
    of Spark's session_window (see sessionize for the rules and arguments).

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    Example:
        {{ session_windows(ref('events'), 'user_id', 'event_at', '30 minutes',
                           {'event_count': 'count(*)'}) }}
    compiles (gaps and islands) to CTEs numbering the sessions, then
        select
            user_id,
            md5(to_json(struct(user_id, min(event_at) as session_start))) as session_id,
            min(event_at) as session_start,
            max(event_at) + interval 30 minutes as session_end,
            count(*) as event_count
        from sessionize_numbers
        group by user_id, sessionize_number
-#}
{% macro session_windows(relation, partition_by, timestamp_column, gap, aggregates, method="gaps_and_islands") %}
    {{- return(adapter.dispatch("session_windows", "spark_query_catalog")(
        relation, partition_by, timestamp_column, gap, aggregates, method
    )) -}}
{% endmacro %}


{% macro default__session_windows(relation, partition_by, timestamp_column, gap, aggregates, method) %}
    {%- set parts = spark_query_catalog._sqc_session_parts(relation, partition_by, timestamp_column, gap, method, "session_windows") -%}
    {%- set aggregate_list = spark_query_catalog._sqc_aggregates(aggregates, "session_windows") -%}
    {%- set aggregate_sql = [] -%}
    {%- for aggregate in aggregate_list -%}
        {%- do aggregate_sql.append(spark_query_catalog._sqc_aggregate_sql(aggregate)) -%}
    {%- endfor -%}

    {%- if method == "session_window" -%}
        {%- set select_sql = parts.partition_keys + [
            spark_query_catalog._sqc_session_id_sql(parts, "session_window.start"),
            "session_window.start as session_start",
            "session_window.end as session_end"
        ] + aggregate_sql -%}
        {%- set lines = [
            "select",
            spark_query_catalog._sqc_list_lines(select_sql, 4),
            "from " ~ parts.relation_sql,
            "group by " ~ (parts.partition_keys + [spark_query_catalog._sqc_session_window_call(parts)]) | join(", ")
        ] -%}
        {{- return(lines | join("\n")) -}}
    {%- endif -%}

    {%- set groups = spark_query_catalog._sqc_session_groups(parts, aggregate_sql) -%}
    {%- set lines = [
        "with " ~ groups.ctes | join(",\n\n"),
        "",
        "select",
        spark_query_catalog._sqc_list_lines(groups.columns, 4),
        "from sessionize_numbers",
        "group by " ~ groups.group_by
    ] -%}
    {{- return(lines | join("\n")) -}}
{% endmacro %}
