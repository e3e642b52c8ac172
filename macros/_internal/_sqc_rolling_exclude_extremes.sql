{#-
    min and max with rolling_select's `exclude` (_sqc_rolling_exclude.sql)
    have no difference: they are the extreme of the frame's rows before the
    row's peers and after them, two frames of their own that end and start
    a key step from the row (a ROWS frame's are rows; van Herk blocks where
    `auto` takes them), and of the row itself ('ties') or of its peers less
    the row ('current row': their extreme, or the next one where the row
    holds it).
-#}

{#- min or max of `part` with `exclude` applied, as SQL: the extreme of the
    frame's rows before the row's peers and after them, and of the row
    ('ties') or of its peers less the row (`others`: its `_others` column)
    where the row is in its frame. Over a RANGE frame a NULL key's frame is
    its NULL peers and the rows an unbounded end reaches (`outside`). -#}
{% macro _sqc_excluded_extreme(part, exclude, in_frame, sides, others, null_key, outside) %}
    {%- set own = [] -%}
    {%- if others -%}
        {%- do own.append(part.name ~ "_others") -%}
    {%- elif exclude == "ties" and in_frame is sameas true -%}
        {%- do own.append(part.argument) -%}
    {%- elif exclude == "ties" and in_frame is not sameas false -%}
        {%- do own.append("if(" ~ in_frame ~ ", " ~ part.argument ~ ", null)") -%}
    {%- endif -%}
    {%- set terms = [] -%}
    {%- for side, side_window in sides.items() if side_window is not none -%}
        {%- do terms.append(part.name ~ "_" ~ side) -%}
    {%- endfor -%}
    {%- set value = spark_query_catalog._sqc_extreme_of(part, terms + own) -%}
    {%- if null_key is none -%}
        {{- return(value) -}}
    {%- endif -%}
    {{- return("case\n    when " ~ null_key ~ " is null\n        then "
        ~ spark_query_catalog._sqc_wrapped(spark_query_catalog._sqc_extreme_of(part,
            ([part.name ~ "_outside"] if outside else []) + own), 13, 0, 4)
        ~ "\n    else " ~ spark_query_catalog._sqc_wrapped(value, 9, 0, 4) ~ "\nend") -}}
{% endmacro %}


{#- The least (min) or greatest (max) of `terms`, which skip NULLs as min
    and max do; with none, a NULL of the argument's type. -#}
{% macro _sqc_extreme_of(part, terms) %}
    {%- if not terms -%}
        {{- return("if(false, " ~ part.argument ~ ", null)") -}}
    {%- elif terms | length == 1 -%}
        {{- return(terms[0]) -}}
    {%- endif -%}
    {{- return(("least" if part.function == "min" else "greatest") ~ "(" ~ terms | join(", ") ~ ")") -}}
{% endmacro %}


{#- The frame's parts before the row's peers and after them, as windows of
    their own: {before, after}, each none where it holds nothing. A
    frame's row before the peers lies a key step (_sqc_exclude_step) before
    the row or further. -#}
{% macro _sqc_exclude_sides(window) %}
    {%- if not window.order_keys -%}
        {{- return({"before": none, "after": none}) -}}
    {%- endif -%}
    {%- set step = spark_query_catalog._sqc_exclude_step(window) -%}
    {%- set sides = {
        "before": [window.start, window.end if window.end.position <= step.before.position else step.before],
        "after": [window.start if window.start.position >= step.after.position else step.after, window.end]
    } -%}
    {%- set result = {} -%}
    {%- for side, bounds in sides.items() -%}
        {%- if bounds[0].position > bounds[1].position -%}
            {%- do result.update({side: none}) -%}
        {%- else -%}
            {%- set texts = [] -%}
            {%- for bound in bounds -%}
                {%- do texts.append(spark_query_catalog._sqc_exclude_bound_sql(bound, step)) -%}
            {%- endfor -%}
            {%- do result.update({side: dict(window, start=bounds[0], end=bounds[1], empty=false, min_rows=none,
                frame_sql=window.frame_kind ~ " between " ~ texts | join(" and "))}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(result) -}}
{% endmacro %}


{#- A key step before and after the current row, as bounds: {before,
    after, seconds}. A ROWS or GROUPS frame steps by 1; a RANGE frame by
    its key's smallest step (_sqc_prefix_frames): 1, 10^-scale for a
    decimal, a day for a date, a microsecond for a timestamp. Spark wants
    both bounds of a frame of one interval type, so over a timestamp every
    interval bound is written as a day to second interval (`seconds`). -#}
{% macro _sqc_exclude_step(window) %}
    {%- set key = window.key -%}
    {%- set intervals = [window.start, window.end] | selectattr("kind", "equalto", "interval") | list -%}
    {%- if window.frame_kind == "range" and key.kind == "timestamp" -%}
        {%- set bounds = [{"kind": "interval", "position": -0.000001}, {"kind": "interval", "position": 0.000001}] -%}
    {%- elif window.frame_kind == "range" and key.kind == "date" and intervals -%}
        {%- set bounds = [spark_query_catalog._sqc_frame_bound("1 day", "preceding", "range"),
            spark_query_catalog._sqc_frame_bound("1 day", "following", "range")] -%}
    {%- else -%}
        {%- set text = spark_query_catalog._sqc_steps_text(1, key.scale if window.frame_kind == "range" else 0) -%}
        {%- set bounds = [spark_query_catalog._sqc_frame_bound("-" ~ text, "following", window.frame_kind),
            spark_query_catalog._sqc_frame_bound(text, "following", window.frame_kind)] -%}
    {%- endif -%}
    {{- return({"before": bounds[0], "after": bounds[1], "seconds": window.frame_kind == "range" and key.kind == "timestamp"}) -}}
{% endmacro %}


{#- A bound's text in a frame of _sqc_exclude_sides. -#}
{% macro _sqc_exclude_bound_sql(bound, step) %}
    {%- if not (step.seconds and bound.kind == "interval") -%}
        {{- return(bound.sql) -}}
    {%- endif -%}
    {%- set micros = (([bound.position, -bound.position] | max) * 1000000) | round | int -%}
    {%- set seconds = micros % 86400000000 // 1000000 -%}
    {%- set fraction = micros % 1000000 -%}
    {{- return("interval '" ~ micros // 86400000000 ~ " " ~ "%02d:%02d:%02d" | format(seconds // 3600, seconds % 3600 // 60,
        seconds % 60) ~ ("." ~ "%06d" | format(fraction) if fraction else "") ~ "' day to second "
        ~ ("preceding" if bound.position < 0 else "following")) -}}
{% endmacro %}
