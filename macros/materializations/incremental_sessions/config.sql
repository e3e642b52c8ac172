{#-
    The model's config for incremental_sessions, checked:

      keys              key column(s) of a session (session_windows'
                        partition_by; _sqc_config_keys)
      timestamp_column  the event time column
      gap               fixed ('30 minutes') or a per-row SQL expression
      aggregates        dict of alias to aggregate over a session's events
                        (columns in the order of the aliases: dbt does not
                        keep a config dict's order)
      event_key         column(s) identifying an event within its keys:
                        copies are one event
      loaded_at         column that grows with every load (a batch id, a load
                        time): events with a larger value than the table has
                        seen are new
      broadcast_rows    up to how many new events, touched sessions a run
                        sends whole to every task instead of shuffling
                        (default 200000; 0 never)
-#}
{% macro _sqc_incremental_sessions_config() %}
    {%- set name = "incremental_sessions" -%}
    {%- set settings = {} -%}
    {%- set key_columns = spark_query_catalog._sqc_config_keys(name) -%}
    {%- for key in ["timestamp_column", "gap", "aggregates", "event_key", "loaded_at"] -%}
        {%- set value = config.get(key) -%}
        {%- if value is none and key != "aggregates" -%}
            {{- spark_query_catalog._sqc_fail(name, key, "set in the model's config", value) -}}
        {%- endif -%}
        {%- do settings.update({key: value}) -%}
    {%- endfor -%}
    {%- do settings.update({
        "key_columns": key_columns,
        "event_keys": spark_query_catalog._sqc_string_list(settings.event_key, name, "event_key", allow_empty=false)
    }) -%}
    {%- set broadcast_rows = config.get("broadcast_rows", 200000) -%}
    {%- if not spark_query_catalog._sqc_is_whole_number(broadcast_rows) -%}
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
        {%- if (alias | string | lower).startswith("spark_query_catalog_") -%}
            {{- spark_query_catalog._sqc_fail(name, "aggregates", "aliases that do not start with"
                ~ " spark_query_catalog_ (the table's own columns)", alias) -}}
        {%- endif -%}
        {%- do all_aggregates.update({alias: expression}) -%}
    {%- endfor -%}
    {#- A session changes only when an event joins it (events are only
        added), so the latest load of its events is also when it last
        changed: the mark changed_rows reads, under the name incremental_windows
        gives it. -#}
    {%- do all_aggregates.update({
        "spark_query_catalog_loaded_at": "max(spark_query_catalog_loaded_at)",
        "spark_query_catalog_changed_at": "max(spark_query_catalog_loaded_at)"
    }) -%}
    {%- do settings.update({"all_aggregates": all_aggregates}) -%}
    {%- set fixed_gap = spark_query_catalog._sqc_duration(settings.gap, name) -%}
    {%- set reach = settings.timestamp_column ~ " + " ~ (
        "interval " ~ fixed_gap if fixed_gap is not none else "cast(" ~ settings.gap ~ " as interval)"
    ) -%}
    {%- do settings.update({"reach_sql": reach}) -%}
    {{- return(settings) -}}
{% endmacro %}
