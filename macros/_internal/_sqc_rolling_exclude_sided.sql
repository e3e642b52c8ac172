{#-
    Floating-point sum and avg with rolling_select's `exclude`
    (_sqc_rolling_exclude.sql). The frame's sum less the excluded rows'
    would cancel digits (a frame of 1e20 and 1 less 1e20 is 0, not 1), so
    these add up what is left instead, as min and max do
    (_sqc_rolling_exclude_extremes.sql): Spark's own sums of the frame's
    rows before the row's peers and after them, and of the row itself
    ('ties') or of its peers less the row ('current row': the peers before
    it and after it in the argument's order, two more frames). Each row's
    value is then a sum of Spark's frame sums, with no subtraction; it
    differs from a sum taken in another order only by rounding.
-#}

{#- The columns a sided part needs beside the peers': its sum and count
    over each side, its peers before and after the row ('current row'
    over RANGE and GROUPS frames, in the order of `<name>_peer_row`), and
    the non-NULL keys' rows an unbounded end reaches (`outside`, for a NULL
    key). Spark's frame with an unbounded following end sums the rest of
    the partition again for every row (rows x partition size), so such a
    frame is written as its mirror, in the reverse order from unbounded
    preceding (a running sum): over RANGE, whose peers share the frame, and
    over the peers' unique row numbers. -#}
{% macro _sqc_exclude_sided_columns(part, window, sides, peers, own_peers, outside, null_key, margin) %}
    {%- set windows = {} -%}
    {%- for side, side_window in sides.items() if side_window is not none -%}
        {%- do windows.update({side: spark_query_catalog._sqc_side_over(side_window)}) -%}
    {%- endfor -%}
    {%- if own_peers -%}
        {%- set row = part.name ~ "_peer_row" -%}
        {%- do windows.update({"peers_before": (dict(peers, order_keys=[row]), "rows between unbounded preceding and 1 preceding"),
            "peers_after": (dict(peers, order_keys=[row ~ " desc"]), "rows between unbounded preceding and 1 preceding")}) -%}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for name, (over, frame_sql) in windows.items() -%}
        {%- for measure in ["sum", "count"] -%}
            {%- do columns.append(measure ~ "(" ~ part.argument ~ ")" ~ spark_query_catalog._sqc_over_sql(over, frame_sql,
                margin) ~ " as " ~ part.name ~ "_" ~ name ~ "_" ~ measure) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if outside -%}
        {%- for measure in ["sum", "count"] -%}
            {%- do columns.append(measure ~ "(" ~ part.argument ~ ") filter (where " ~ null_key ~ " is not null)"
                ~ spark_query_catalog._sqc_over_sql(dict(window, order_keys=[]), "", margin)
                ~ " as " ~ part.name ~ "_outside_" ~ measure) -%}
        {%- endfor -%}
    {%- endif -%}
    {{- return(columns) -}}
{% endmacro %}


{#- A side of the row's peers as (window, frame clause): a RANGE frame to
    `unbounded following` as its mirror, in the reverse order from
    `unbounded preceding`, which Spark keeps as a running aggregate. -#}
{% macro _sqc_side_over(side_window) %}
    {%- set reach = side_window.frame_sql.split(" between ", 1)[1].split(" and ") -%}
    {%- if side_window.frame_kind == "range" and reach[1] == "unbounded following" and side_window.order_keys -%}
        {{- return((dict(side_window, order_keys=[spark_query_catalog._sqc_reversed_key(side_window.order_keys[0])]),
            "range between unbounded preceding and " ~ spark_query_catalog._sqc_mirrored_bound(reach[0]))) -}}
    {%- endif -%}
    {{- return((side_window, side_window.frame_sql)) -}}
{% endmacro %}


{#- `source_sql` with each sided part's peers numbered (`<name>_peer_row`,
    in the argument's order), for the peers' frames before and after the
    row: one numbering, so that the two frames never share a tied row. -#}
{% macro _sqc_sided_peer_rows(source_sql, sided, peers) %}
    {%- set columns = [] -%}
    {%- for part in sided -%}
        {%- do columns.append("row_number()" ~ spark_query_catalog._sqc_over_sql(dict(peers, order_keys=[part.argument]), "", 4)
            ~ " as " ~ part.name ~ "_peer_row") -%}
    {%- endfor -%}
    {{- return("(\n" ~ ("select\n    *,\n" ~ spark_query_catalog._sqc_list_lines(columns, 4) ~ "\nfrom " ~ source_sql)
        | indent(4, first=true) ~ "\n) as rolling_peer_rows") -}}
{% endmacro %}


{#- An order key the other way round: the direction and the NULLs' place
    both turned (written only where they differ from Spark's default). -#}
{% macro _sqc_reversed_key(order_key) %}
    {%- set descending = modules.re.search("(?i)\\sdesc(\\s+nulls\\s+(first|last))?$", order_key) is not none -%}
    {%- set nulls_first = not spark_query_catalog._sqc_nulls_first(order_key) -%}
    {{- return(spark_query_catalog._sqc_key_head(order_key) ~ ("" if descending else " desc")
        ~ ("" if nulls_first == descending else (" nulls first" if nulls_first else " nulls last"))) -}}
{% endmacro %}


{#- A frame bound seen from the other end: `x following` as `x preceding`. -#}
{% macro _sqc_mirrored_bound(bound_sql) %}
    {{- return(bound_sql[:-(" following" | length)] ~ " preceding" if bound_sql.endswith(" following")
        else bound_sql[:-(" preceding" | length)] ~ " following" if bound_sql.endswith(" preceding") else bound_sql) -}}
{% endmacro %}


{#- A sided part's sum and count of what its frame keeps, as two columns
    (`<name>_kept_sum`, `<name>_kept_count`): the sides, the peers less the
    row ('current row' over RANGE and GROUPS frames) and the row itself
    ('ties'), where the row is in its frame. Over a RANGE frame a NULL
    key's frame is its NULL peers and the rows an unbounded end reaches
    (`outside`). -#}
{% macro _sqc_sided_kept(part, exclude, sides, in_frame, own_peers, null_key, outside) %}
    {%- set own = [] -%}
    {%- if own_peers -%}
        {%- do own.extend(["peers_before", "peers_after"]) -%}
    {%- endif -%}
    {%- set terms = [] -%}
    {%- for side, side_window in sides.items() if side_window is not none -%}
        {%- do terms.append(side) -%}
    {%- endfor -%}
    {%- set columns = [] -%}
    {%- for measure in ["sum", "count"] -%}
        {%- set kept = spark_query_catalog._sqc_sided_terms(part, measure, exclude, own + terms, in_frame) -%}
        {%- if null_key is not none -%}
            {%- set kept = "if(\n    " ~ null_key ~ " is null,\n    "
                ~ spark_query_catalog._sqc_sided_terms(part, measure, exclude, own + (["outside"] if outside else []),
                    in_frame) | replace("\n", "\n    ")
                ~ ",\n    " ~ kept | replace("\n", "\n    ") ~ "\n)" -%}
        {%- endif -%}
        {%- do columns.append(spark_query_catalog._sqc_indented(kept, 4) ~ " as " ~ part.name ~ "_kept_" ~ measure) -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}


{#- The sum (or count) of `terms`' columns and of the row itself where
    `exclude` is 'ties', one term a line; a peers' term, and the row, only
    where the row is in its frame. A count is never NULL, but a kept count
    of one bare column would be a plain column among computed ones, which
    sqlfluff's ST06 wants first: every term is a `coalesce`. -#}
{% macro _sqc_sided_terms(part, measure, exclude, terms, in_frame) %}
    {%- set values = [] -%}
    {%- for term in terms -%}
        {%- set column = part.name ~ "_" ~ term ~ "_" ~ measure -%}
        {%- set value = "coalesce(" ~ column ~ ", 0)" -%}
        {%- do values.append("if(" ~ in_frame ~ ", " ~ value ~ ", 0)" if term.startswith("peers_") and in_frame is string
            else value) -%}
    {%- endfor -%}
    {%- if exclude == "ties" and in_frame is not sameas false -%}
        {%- set value = "coalesce(" ~ part.argument ~ ", 0)" if measure == "sum"
            else "if(" ~ part.argument ~ " is null, 0, 1)" -%}
        {%- do values.append("if(" ~ in_frame ~ ", " ~ value ~ ", 0)" if in_frame is string else value) -%}
    {%- endif -%}
    {{- return(values | join("\n+ ") if values else "0") -}}
{% endmacro %}


{#- The value of a sided part from its kept sum and count. -#}
{% macro _sqc_sided_value(part) %}
    {%- set value = part.name ~ "_kept_sum" ~ (" / " ~ part.name ~ "_kept_count" if part.function == "avg" else "") -%}
    {{- return("case\n    when " ~ part.name ~ "_kept_count > 0\n        then " ~ value ~ "\nend") -}}
{% endmacro %}
