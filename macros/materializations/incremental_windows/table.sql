{#-
    The model's table: the events' columns as the model selects them, the
    stored table as a run finds it, and its watermark.
-#}


{#- The events' columns ({name, data_type}, names as the model's SQL gives
    them, asked with `describe query`), checked against the config. -#}
{% macro _sqc_window_event_columns(settings, events_sql) %}
    {%- set name = "incremental_windows" -%}
    {%- set columns = [] -%}
    {%- for row in run_query("describe query\n" ~ events_sql) -%}
        {%- do columns.append({"name": row[0], "data_type": row[1] | lower}) -%}
    {%- endfor -%}
    {%- set names = columns | map(attribute="name") | list -%}
    {%- set lower = names | map("lower") | list -%}
    {%- for setting in ["keys", "event_key", "order_by"] -%}
        {%- set wanted = settings.key_columns if setting == "keys"
            else settings.event_keys if setting == "event_key" else [settings.order_by] -%}
        {%- for column in wanted if spark_query_catalog._sqc_unquote(column) | lower not in lower -%}
            {{- spark_query_catalog._sqc_fail(name, setting, "columns of the model's events ("
                ~ names | join(", ") ~ ")", column) -}}
        {%- endfor -%}
    {%- endfor -%}
    {%- set order_type = spark_query_catalog._sqc_find_column(columns, spark_query_catalog._sqc_unquote(settings.order_by)).data_type | lower -%}
    {%- if order_type not in ["date", "timestamp", "timestamp_ntz"] -%}
        {{- spark_query_catalog._sqc_fail(name, "order_by", "a date or timestamp column (the table is partitioned"
            ~ " by its date); " ~ settings.order_by ~ " is " ~ order_type, settings.order_by) -}}
    {%- endif -%}
    {%- if settings.span_end is not none -%}
        {%- set span_column = spark_query_catalog._sqc_find_column(columns, spark_query_catalog._sqc_unquote(settings.span_end)) -%}
        {%- if span_column is none or span_column.data_type | lower != order_type -%}
            {{- spark_query_catalog._sqc_fail(name, "span_end", "a column of the model's events of order_by's type ("
                ~ order_type ~ "): " ~ (names | join(", ")), settings.span_end) -}}
        {%- endif -%}
    {%- endif -%}
    {%- set internal = ["windows_first_new", "windows_last_new", "windows_rows_before", "windows_rows_after",
        "windows_rewrite", "windows_rewrite_before", "windows_rewrite_after", "windows_read_from", "windows_read_to",
        "windows_found_before", "windows_latest_date", "windows_write", "windows_source", "windows_copy",
        "windows_last_loaded", "windows_any_write", "windows_covered", "windows_halo_days", "windows_before"] -%}
    {%- for column in lower if column.startswith("spark_query_catalog_") or column.startswith("windows_state_")
        or column.startswith("windows_was_")
        or column in internal
        or column in settings.aliases | map("lower") | list -%}
        {{- spark_query_catalog._sqc_error(name, "the model's events have a column " ~ column ~ ", which is the"
            ~ " name of " ~ ("a window in `windows`" if column in settings.aliases | map("lower") | list
            else "a column the table keeps for itself") ~ ": rename one of them.") -}}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}


{#- The stored table: its relation, its columns (read once per run) and its state. -#}
{% macro _sqc_window_table(relation, settings, event_columns) %}
    {%- set stored = adapter.get_columns_in_relation(relation) -%}
    {%- set stored_names = stored | map(attribute="name") | map("lower") | list -%}
    {%- if "spark_query_catalog_date" not in stored_names or "spark_query_catalog_loaded_at" not in stored_names -%}
        {{- spark_query_catalog._sqc_error(
            "incremental_windows",
            relation ~ " was not built by incremental_windows (it has no spark_query_catalog_date"
            ~ " and spark_query_catalog_loaded_at columns): rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
    {%- set data_columns = stored | map(attribute="name") | reject("equalto", "spark_query_catalog_date") | list -%}
    {%- set expected = spark_query_catalog._sqc_window_table_columns(settings, event_columns) | map("lower") | list -%}
    {%- if data_columns | map("lower") | list != expected -%}
        {{- spark_query_catalog._sqc_error(
            "incremental_windows",
            relation ~ " has the columns " ~ data_columns | map("lower") | join(", ") ~ ", where the model's events"
            ~ " and windows give " ~ expected | join(", ") ~ ": they changed since the table was built."
            ~ " Rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
    {{- return({
        "relation": relation,
        "data_columns": data_columns,
        "loaded_type": spark_query_catalog._sqc_find_column(stored, "spark_query_catalog_loaded_at").data_type | lower,
        "state": spark_query_catalog._sqc_table_state(relation, ["watermark", "halo_days", "run"]),
        "partition_column": "spark_query_catalog_date",
        "materialization": "incremental_windows"
    }) -}}
{% endmacro %}


{#- Reads the watermark from every stored row (a table just rebuilt). -#}
{% macro _sqc_measure_watermark(table) %}
    {%- set measured = run_query(
        "select " ~ spark_query_catalog._sqc_loaded_text("max(spark_query_catalog_loaded_at)", table.loaded_type)
        ~ " as watermark\nfrom " ~ table.relation
    ).rows[0] -%}
    {%- do spark_query_catalog._sqc_record_state(table, {
        "watermark": spark_query_catalog._sqc_loaded_literal(measured[0], table.loaded_type)
    }) -%}
{% endmacro %}
