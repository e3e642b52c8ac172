{#-
    What rolling_select's `exclude` (_sqc_rolling_exclude.sql) takes out of
    a frame's sums and counts. For sum, count and avg, the excluded rows'
    own sum and count. For distinct counts, the values that only the
    excluded rows bring to the frame; whether a value is only theirs is a
    comparison of two counts of the row's own value: how many rows of the
    frame hold it (the same frame over the rows with that value, `partition
    by` the keys and the value) and how many of the excluded rows do.

    - 'current row': the row's value goes when the frame holds it once.
    - 'group': a RANGE or GROUPS frame holds the row's peers all or none,
      so a value goes when every row of the frame that holds it is a peer;
      the number of such values is a set counted over the peer group.
    - 'ties': as 'group', less the row's own value where it went, since
      the row stays.

    Over a ROWS frame the rows are numbered first (_sqc_numbered_groups with
    row_number), so that the frame's count and the count of the row's value
    read the same rows whichever order Spark reads peers in.
-#}

{#- The measures a part's frame gives it: its count, and for sum and avg
    its sum too. -#}
{% macro _sqc_measures(part) %}
    {{- return(["count"] if part.function == "count" else ["count", "sum"]) -}}
{% endmacro %}


{#- Whether a ROWS or GROUPS frame holds its own row: its bounds hold
    offset 0 (`preceding=3, following=-1` do not). -#}
{% macro _sqc_bounds_hold_row(window) %}
    {{- return((window.start.position or 0) <= 0 and 0 <= (window.end.position or 0)) -}}
{% endmacro %}


{#- What `exclude` takes out of a part's frame that was in it, as SQL:
    {count, sum}, each none for nothing. `in_frame` is whether the row is in
    its own frame: true, false, or the column that says it. -#}
{% macro _sqc_excluded(part, exclude, in_frame, peer_keys) %}
    {%- if in_frame is sameas false -%}
        {{- return({"count": none, "sum": none}) -}}
    {%- elif part.arguments -%}
        {{- return({"count": spark_query_catalog._sqc_excluded_distinct(part, exclude, in_frame, peer_keys), "sum": none}) -}}
    {%- endif -%}
    {%- set argument = part.argument -%}
    {%- set own_count = "1" if argument == "*" else "if(" ~ argument ~ " is null, 0, 1)" -%}
    {%- set own_sum = "coalesce(" ~ argument ~ ", 0)" -%}
    {%- if in_frame is not sameas true -%}
        {%- set own_count = "if(" ~ in_frame ~ ", " ~ own_count ~ ", 0)" -%}
        {%- set own_sum = "if(" ~ in_frame ~ ", " ~ own_sum ~ ", 0)" -%}
    {%- endif -%}
    {%- set peers_count = part.name ~ "_peers_count" -%}
    {%- set peers_sum = "coalesce(" ~ part.name ~ "_peers_sum, 0)" -%}
    {%- if exclude == "current row" -%}
        {{- return({"count": own_count, "sum": own_sum}) -}}
    {%- elif exclude == "group" -%}
        {{- return({"count": peers_count, "sum": peers_sum}) -}}
    {%- endif -%}
    {{- return({"count": peers_count ~ " - " ~ own_count, "sum": peers_sum ~ " - " ~ own_sum}) -}}
{% endmacro %}


{#- The step (as _sqc_rolling_exclude_sql's steps) that counts the row's
    value for a distinct `part` in its frame (`_frame_copies`): the frame
    over the rows with that value, `partition by` the keys and the value,
    in the forms `auto` takes for a count (prefix differences where the
    frame is wide); of several values, the rows where none is NULL. -#}
{% macro _sqc_exclude_copies_step(part, window) %}
    {%- set keys = window.partition_keys + part.arguments -%}
    {%- set counted = part.arguments[0] if part.arguments | length == 1
        else "if(" ~ spark_query_catalog._sqc_all_present_sql(part.arguments) ~ ", 1, null)" -%}
    {{- return({"name": part.name ~ "_copies", "aggregates": {part.name ~ "_frame_copies": "count(" ~ counted ~ ")"},
        "window": dict(window, partition_keys=keys, partition_clause="partition by " ~ keys | join(", "))}) -}}
{% endmacro %}


{#- The column that counts the row's value among its peers, for 'group' and
    'ties' (`_peer_copies`). `peer_keys` are the keys and the order keys.
    The peers are counted with count(*), so that a NULL value, which the
    frame does not count, never looks as though only the peers held it. -#}
{% macro _sqc_exclude_peer_copies(part, peer_keys) %}
    {{- return("count(*)" ~ spark_query_catalog._sqc_over_sql({"partition_clause": "partition by "
        ~ (peer_keys + part.arguments) | join(", ")}, "", 4) ~ " as " ~ part.name ~ "_peer_copies") -}}
{% endmacro %}


{#- What `exclude` takes out of a distinct `part`'s count, as SQL, where
    the row is in its frame (`in_frame`: true, or the column that says it).
    'current row': the row's value, where the frame holds it once. 'group':
    the set of the peers' values that the frame holds only in peers;
    'ties': that set less the row's value. -#}
{% macro _sqc_excluded_distinct(part, exclude, in_frame, peer_keys) %}
    {%- if exclude == "current row" -%}
        {%- set gone = part.name ~ "_frame_copies = 1" -%}
        {{- return("if(" ~ (gone if in_frame is sameas true else in_frame ~ " and " ~ gone) ~ ", 1, 0)") -}}
    {%- endif -%}
    {%- set value = part.arguments[0] if part.arguments | length == 1 else "struct(" ~ part.arguments | join(", ") ~ ")" -%}
    {%- set peers = {"partition_clause": "partition by " ~ peer_keys | join(", ") if peer_keys else ""} -%}
    {%- set only_peers = "collect_set(if(\n    " ~ part.name ~ "_frame_copies = " ~ part.name ~ "_peer_copies,\n    "
        ~ value ~ ",\n    null\n))" ~ spark_query_catalog._sqc_over_sql(peers, "", 0) -%}
    {%- if exclude == "ties" -%}
        {%- set out = "size(array_except(\n    " ~ spark_query_catalog._sqc_indented(only_peers, 4)
            ~ ",\n    array(" ~ value ~ ")\n))" -%}
    {%- else -%}
        {%- set out = "size(\n    " ~ spark_query_catalog._sqc_indented(only_peers, 4) ~ "\n)" -%}
    {%- endif -%}
    {%- if in_frame is not sameas true -%}
        {%- set out = "if(\n    " ~ in_frame ~ ",\n    " ~ spark_query_catalog._sqc_indented(out, 4) ~ ",\n    0\n)" -%}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_indented(out, 4)) -}}
{% endmacro %}
