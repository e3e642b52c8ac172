{#-
    Windows inside dbt's microbatch (incremental_strategy='microbatch'). dbt
    runs the model once per batch and cuts every ref() or source() that has an
    event_time to the batch's range [event_time_start, event_time_end): a
    frame that reaches before the batch (or after it, with `following`) sees
    none of those rows and returns other numbers than a full refresh, without
    an error.

    rolling_select reads its own halo: given a relation dbt has cut, it reads
    the same relation uncut from the batch's start less the frame's reach
    back (and one day more, for a day that daylight saving makes longer) to
    the batch's end plus its reach forward, computes the window there, and
    returns the batch's rows only. That is exact for a RANGE frame over the
    event_time column itself with both ends bounded by intervals (its reach
    is a length of time). The batch's own rows then equal a full refresh's,
    and the table equals the full refresh whenever the data's lateness stays
    within the model's `lookback` (a batch that is not re-run keeps what it
    computed).
-#}

{#- dbt's event_time filter on `relation` (its cut to a batch), or none. -#}
{% macro _sqc_batch_filter(relation) %}
    {%- if execute and spark_query_catalog._sqc_is_relation(relation) and relation.event_time_filter is defined
        and relation.event_time_filter is not none -%}
        {{- return(relation.event_time_filter) -}}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}


{#- Whether dbt is running a batch of a microbatch model. -#}
{% macro _sqc_in_batch() %}
    {{- return(execute and model is defined and model is not none and model.batch is defined
        and model.batch is not none) -}}
{% endmacro %}


{#-
    For a relation dbt has cut to a batch: {"sql": the relation uncut over
    the batch and its halo, as a derived table, "batch": the condition that
    keeps the batch's own rows}; none when dbt has not cut it. A frame whose
    reach is not a length of time of the event_time column is an error.
-#}
{% macro _sqc_batch_halo(relation, window, macro_name) %}
    {%- set cut = spark_query_catalog._sqc_batch_filter(relation) -%}
    {%- if cut is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set field = cut.field_name -%}
    {%- set order_key = window.order_keys[0] if window.order_keys else none -%}
    {%- set key = spark_query_catalog._sqc_key_head(order_key or "") | replace("`", "") | lower -%}
    {%- set needed = none -%}
    {%- if window.frame_kind != "range" or key != field | replace("`", "") | lower -%}
        {%- set needed = "frame='range' with order_by=" ~ spark_query_catalog._sqc_repr(field) -%}
    {%- elif window.start.kind == "unbounded" or window.end.kind == "unbounded" -%}
        {%- set needed = "a frame with both ends bounded" -%}
    {%- else -%}
        {%- set intervals = [window.start, window.end] | selectattr("kind", "equalto", "interval") | list -%}
        {%- if intervals | rejectattr("position", "number") | list
            or intervals | selectattr("interval.fields", "equalto", "year_month") | list -%}
            {%- set needed = "intervals of a fixed length, such as '7 days'" -%}
        {%- endif -%}
    {%- endif -%}
    {%- if needed is not none -%}
        {{- spark_query_catalog._sqc_error(macro_name, "inside a microbatch batch dbt cuts "
            ~ relation.render() ~ " to the batch's " ~ field ~ " range, and a frame reaching past the batch"
            ~ " would see none of the rows beyond it. rolling_select reads those rows itself for a RANGE frame over"
            ~ " the event_time column with a reach of fixed length: it needs " ~ needed ~ " (got frame="
            ~ spark_query_catalog._sqc_repr(window.frame_kind) ~ ", order_by="
            ~ spark_query_catalog._sqc_repr(order_key) ~ ", " ~ window.frame_sql
            ~ "). Or read the whole relation: ref(...).render().") -}}
    {%- endif -%}
    {#- The reach back and forward, in seconds, and a day more for a day
        that daylight saving makes 25 hours. -#}
    {%- set back = modules.datetime.timedelta(seconds=([0, -window.start.position] | max) + 86400) -%}
    {%- set forward = modules.datetime.timedelta(seconds=([0, window.end.position] | max) + 86400) -%}
    {%- set halo = [] -%}
    {%- set batch = [] -%}
    {%- if cut.start is not none -%}
        {%- do halo.append(field ~ " >= '" ~ (cut.start - back) ~ "'") -%}
        {%- do batch.append("rolling_batch." ~ field ~ " >= '" ~ cut.start ~ "'") -%}
    {%- endif -%}
    {%- if cut.end is not none -%}
        {%- do halo.append(field ~ " < '" ~ (cut.end + forward) ~ "'") -%}
        {%- do batch.append("rolling_batch." ~ field ~ " < '" ~ cut.end ~ "'") -%}
    {%- endif -%}
    {%- set uncut = relation.replace(event_time_filter=none) | string -%}
    {{- return({
        "sql": "(\n    select *\n    from " ~ uncut ~ "\n    where\n        " ~ halo | join("\n        and ") ~ "\n) as rolling_halo",
        "batch": batch | join("\n    and ")
    }) -}}
{% endmacro %}


{#- rolling() inside a batch: a warning when the frame reaches past the
    row, since dbt may have cut its input to the batch (an expression cannot
    read more rows). -#}
{% macro _sqc_warn_rolling_in_batch(window, relation) %}
    {%- set reaches = window.start.kind == "unbounded" or window.end.kind == "unbounded"
        or (window.start.position or 0) < 0 or (window.end.position or 0) > 0 -%}
    {%- if reaches -%}
        {%- do spark_query_catalog._sqc_warn_in_batch("rolling", relation, "its frame (" ~ window.frame_sql ~ ") sees",
            "Use rolling_select(ref(...), ...), which reads the rows its frame reaches (a RANGE frame over the"
            ~ " event_time column), or ref(...).render() for the whole relation.") -%}
    {%- endif -%}
{% endmacro %}


{#- A warning that `macro_name`, run inside a microbatch batch over input
    dbt cuts to the batch, gives other numbers than a full refresh: `sees`
    says what sees only the batch, `instead` what to do. -#}
{% macro _sqc_warn_in_batch(macro_name, relation, sees, instead) %}
    {%- if not spark_query_catalog._sqc_in_batch() -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set cut = spark_query_catalog._sqc_batch_filter(relation) -%}
    {%- set input = ("dbt has cut " ~ relation.render() ~ " to the batch") if cut is not none
        else "dbt cuts every ref() and source() with an event_time to the batch" -%}
    {%- set name = ("model " ~ model.name) if model is defined and model.name is defined else "this model" -%}
    {%- do exceptions.warn("spark_query_catalog." ~ macro_name ~ ": " ~ name ~ " runs in microbatch batches and "
        ~ input ~ ": " ~ sees ~ " none of the rows before or after the batch, and gives other numbers than a full"
        ~ " refresh, without an error. " ~ instead) -%}
{% endmacro %}
