{#-
    The sessions table: its columns, checked against the model's, and the
    days a session spans (shared/relations.sql: what every table records).
-#}


{#- The stored table: its relation, its columns (read once per run) and its state. -#}
{% macro _sqc_session_table(relation) %}
    {%- set stored = adapter.get_columns_in_relation(relation) -%}
    {%- set stored_names = stored | map(attribute="name") | map("lower") | list -%}
    {%- if "session_date" not in stored_names or "spark_query_catalog_loaded_at" not in stored_names -%}
        {{- spark_query_catalog._sqc_error(
            "incremental_sessions",
            relation ~ " was not built by incremental_sessions (it has no session_date"
            ~ " and spark_query_catalog_loaded_at columns): rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
    {{- return({
        "relation": relation,
        "data_columns": stored | map(attribute="name") | reject("equalto", "session_date") | list,
        "loaded_type": spark_query_catalog._sqc_find_column(stored, "spark_query_catalog_loaded_at").data_type | lower,
        "state": spark_query_catalog._sqc_table_state(relation, ["watermark", "session_days"]),
        "partition_column": "session_date",
        "materialization": "incremental_sessions"
    }) -}}
{% endmacro %}


{#- The stored sessions' columns must be those the model's config gives, in
    order: a run writes recomputed sessions beside stored ones. -#}
{% macro _sqc_check_session_columns(table, settings) %}
    {%- set expected = [] -%}
    {%- for name in settings.key_columns + ["session_id", "session_start", "session_end"] + settings.all_aggregates.keys() | list -%}
        {%- do expected.append(spark_query_catalog._sqc_unquote(name) | lower) -%}
    {%- endfor -%}
    {%- set stored = table.data_columns | map("lower") | list -%}
    {%- if stored != expected -%}
        {{- spark_query_catalog._sqc_error(
            "incremental_sessions",
            table.relation ~ " has the columns " ~ stored | join(", ") ~ ", where the model's keys and"
            ~ " aggregates give " ~ expected | join(", ") ~ ": they changed since the table was built."
            ~ " Rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
{% endmacro %}


{#- The most days a session spans, over the sessions of a query. -#}
{% macro _sqc_session_days_sql() %}
    {{- return("max(datediff(to_date(session_end), session_date))") -}}
{% endmacro %}


{#- Reads the watermark and the session days from every stored session (a
    table built before they were kept, or just rebuilt). -#}
{% macro _sqc_measure_session_table(table) %}
    {%- set measured = run_query(
        "select\n    " ~ spark_query_catalog._sqc_loaded_text("max(spark_query_catalog_loaded_at)", table.loaded_type)
        ~ " as watermark,\n    " ~ spark_query_catalog._sqc_session_days_sql()
        ~ " as session_days\nfrom " ~ table.relation
    ).rows[0] -%}
    {%- do spark_query_catalog._sqc_record_state(table, {
        "watermark": spark_query_catalog._sqc_loaded_literal(measured[0], table.loaded_type),
        "session_days": measured[1]
    }) -%}
{% endmacro %}
