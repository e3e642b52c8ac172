{#-
    What a materialization's table knows of itself, in table properties, so
    that a run need not read every row to learn it (incremental_sessions'
    two; incremental_windows' also records spark_query_catalog.halo_days
    and spark_query_catalog.run):
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
    {%- set pending = spark_query_catalog._sqc_pending_relation(this) -%}
    {{- return({
        "target": this.incorporate(type="table"),
        "pending": pending,
        "existing": adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier),
        "pending_existing": adapter.get_relation(database=this.database, schema=this.schema, identifier=pending.identifier)
    }) -}}
{% endmacro %}


{#- Refuses to read `relation`, a table that keeps change marks
    (incremental_windows or incremental_sessions), while it has an
    unfinished run: some of its days would be rewritten, with new marks,
    and some not, and the reader would go past marks that the repair writes
    later. -#}
{% macro _sqc_check_finished(macro_name, relation) %}
    {%- set pending = spark_query_catalog._sqc_pending_relation(relation).identifier -%}
    {%- if adapter.get_relation(database=relation.database, schema=relation.schema, identifier=pending) -%}
        {{- spark_query_catalog._sqc_error(macro_name, relation ~ " has an unfinished run (its table "
            ~ pending ~ " is there): run " ~ relation.identifier ~ " first, which finishes it, then this model.") -}}
    {%- endif -%}
{% endmacro %}


{#- The same for every model of that kind the calling model refs. -#}
{% macro _sqc_check_upstreams_finished(macro_name) %}
    {%- for node_id in model.depends_on.nodes if node_id in graph.nodes -%}
        {%- set node = graph.nodes[node_id] -%}
        {%- if node.config.materialized in ["incremental_windows", "incremental_sessions"] -%}
            {%- do spark_query_catalog._sqc_check_finished(macro_name,
                api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias)) -%}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}


{#- The write-ahead table of a run of `relation` (shared/apply.sql). -#}
{% macro _sqc_pending_relation(relation) %}
    {{- return(relation.incorporate(path={"identifier": relation.identifier ~ "__spark_query_catalog_pending"}, type="table")) -}}
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
