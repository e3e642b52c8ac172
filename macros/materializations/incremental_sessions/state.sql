{#-
    What the sessions table knows of itself, in two table properties, so that
    a run need not read every session to learn it:
      spark_query_catalog.watermark     the largest loaded_at in the table, as a SQL literal
                        (a timestamp as timestamp_micros(...): the same in
                        every session time zone)
      spark_query_catalog.session_days  the most days a session spans (session_end's date
                        minus session_date): touched sessions start at most
                        that many days before the first new event
    Both are none until measured (a new table; an older one). A property may
    lag behind the table, never run ahead of it: the days are raised before
    the sessions that need them are written, the watermark after. A lagging
    watermark makes a run take some events as new again, which recomputes
    their sessions to the same result.
-#}

{#- The model's table and its pending table (incremental_sessions and
    incremental_windows), and what of each exists. -#}
{% macro _sqc_incremental_relations() %}
    {%- set pending = this.incorporate(path={"identifier": this.identifier ~ "__spark_query_catalog_pending"}, type="table") -%}
    {{- return({
        "target": this.incorporate(type="table"),
        "pending": pending,
        "existing": adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier),
        "pending_existing": adapter.get_relation(database=this.database, schema=this.schema, identifier=pending.identifier)
    }) -}}
{% endmacro %}


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
            table.relation ~ " has the columns " ~ stored | join(", ") ~ ", where the model's partition_by and"
            ~ " aggregates give " ~ expected | join(", ") ~ ": they changed since the table was built."
            ~ " Rebuild it with --full-refresh."
        ) -}}
    {%- endif -%}
{% endmacro %}


{#- The table properties spark_query_catalog.<name> of `names`, none where
    unset (a property ending in _days is a number of days). -#}
{% macro _sqc_table_state(relation, names) %}
    {%- set state = {} -%}
    {%- for name in names -%}
        {%- do state.update({name: none}) -%}
    {%- endfor -%}
    {%- for row in run_query("show tblproperties " ~ relation) if row[0].startswith("spark_query_catalog.") -%}
        {%- set name = row[0][("spark_query_catalog." | length):] -%}
        {%- if name in names -%}
            {%- do state.update({name: row[1] | int if name.endswith("_days") else row[1]}) -%}
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


{#- Records `values` (name to value; a none is left unset) as table
    properties spark_query_catalog.<name>, and in `table.state`. -#}
{% macro _sqc_record_state(table, values) %}
    {%- set properties = [] -%}
    {%- for name, value in values | dictsort if value is not none -%}
        {%- do properties.append("'spark_query_catalog." ~ name ~ "' = " ~ spark_query_catalog._sqc_string_literal(value | string)) -%}
        {%- do table.state.update({name: value}) -%}
    {%- endfor -%}
    {%- if properties -%}
        {%- do run_query("alter table " ~ table.relation ~ " set tblproperties (" ~ properties | join(", ") ~ ")") -%}
    {%- endif -%}
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
