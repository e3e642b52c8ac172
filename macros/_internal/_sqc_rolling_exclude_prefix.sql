{#-
    rolling_select's `exclude` 'group' and 'ties' over a ROWS frame, for
    calls whose every aggregate subtracts (sum, count and avg of integers
    and decimals whose running totals cannot overflow, count(*)): one
    window, one sort, as the frame without `exclude`.

    A ROWS frame's edges can cut through the row's peers, so the peers in
    the frame are those of the row's peer group [first, last] (positions
    in the window's order) that lie in the frame [row - p, row + f]. Their
    sum is a difference of running totals over the window:

      up to the later end:  the running total to the peer group's end
                            (RANGE ... current row) where the frame reaches
                            it, else to the frame's end (ROWS ... f following)
      before the start:     the running total before the peer group (the
                            same less the peers' own, RANGE current row) where
                            the frame starts at or before the group, else
                            before the frame's start (ROWS ... p + 1 preceding)

    Whether the frame reaches past the peers is a count of the peers before
    the row (row_number() - rank()) and after it. Every window here has the
    one partition and order, so Spark computes them in one Window over one
    sort, reading tied rows in one order: the frame's rows and the peers in
    it are counted in the same order, as a ROWS frame over ties reads its
    rows in some order of Spark's. (Numbering the rows first and taking the
    peers' frame over `partition by` the keys and the group, as
    _sqc_rolling_exclude_rows.sql does for the rest, sorts the rows twice
    more.)
-#}

{#- The query: `relation_sql`'s columns and each of `parts` (all
    subtracted, _sqc_exclude_parts) over the ROWS `window` with `exclude`
    ('group' or 'ties') applied. -#}
{% macro _sqc_rolling_exclude_prefix_sql(relation_sql, parts, window, exclude) %}
    {%- set preceding = none if window.start.kind == "unbounded" else -(window.start.position | int) -%}
    {%- set following = none if window.end.kind == "unbounded" else window.end.position | int -%}
    {#- Where the frame can stop inside the peer group (a bound past the
        row), the peers before or after the row tell whether it does; where
        the frame lies beside the row, whether it reaches the peers at all. -#}
    {%- set cut_before = preceding is not none and preceding > 0 -%}
    {%- set cut_after = following is not none and following > 0 -%}
    {%- set over = spark_query_catalog._sqc_over_sql(window, "", 4) -%}
    {%- set numbers = [] -%}
    {%- set helpers = [] -%}
    {%- if cut_before or (following is not none and following < 0) -%}
        {%- do numbers.append("row_number()" ~ over ~ " - rank()" ~ over ~ " as rolling_peers_before") -%}
        {%- do helpers.append("rolling_peers_before") -%}
    {%- endif -%}
    {%- if cut_after or (preceding is not none and preceding < 0) -%}
        {%- do numbers.append("rank()" ~ over ~ " + count(*)" ~ spark_query_catalog._sqc_over_sql(window,
            "range between current row and current row", 4) ~ " - 1 - row_number()" ~ over ~ " as rolling_peers_after") -%}
        {%- do helpers.append("rolling_peers_after") -%}
    {%- endif -%}

    {#- The running totals: to the frame's end and before its start, to the
        peer group's end and the peers' own. -#}
    {%- set frames = spark_query_catalog._sqc_prefix_frames(window, none) -%}
    {%- set to_peers_end = "range between unbounded preceding and current row" -%}
    {%- set pieces = [("to_end", [frames.end])] + ([("before", [frames.before])] if frames.before else [])
        + ([("to_peers_end", [to_peers_end])] if following is none or following > 0 else [])
        + ([("before_peers", [to_peers_end, "range between current row and current row"])]
            if preceding is none or preceding > 0 else []) -%}
    {%- set totals = [] -%}
    {%- set shared = {} -%}
    {%- set frame_columns = [] -%}
    {%- set peer_columns = [] -%}
    {%- for part in parts -%}
        {%- for measure in spark_query_catalog._sqc_measures(part) -%}
            {%- set argument = part.argument if measure == "count" or spark_query_catalog._sqc_long_totals_wrap(part.type)
                else spark_query_catalog._sqc_linear_summand(part.argument, part.type) -%}
            {%- set name = part.name ~ "_" ~ measure -%}
            {#- Parts that total the same argument share its running totals. -#}
            {%- set total = shared.get(measure ~ "(" ~ argument ~ ")", {}) -%}
            {%- set fresh = not total -%}
            {%- do shared.update({measure ~ "(" ~ argument ~ ")": total}) -%}
            {%- for piece, frames_sql in pieces if fresh -%}
                {%- set calls = [] -%}
                {%- for frame_sql in frames_sql -%}
                    {%- set call = spark_query_catalog._sqc_prefix_call(measure, argument, window, frame_sql) -%}
                    {%- do calls.append(call if measure == "count" else "coalesce(" ~ call ~ ", 0)") -%}
                {%- endfor -%}
                {%- do totals.append(spark_query_catalog._sqc_indented(calls | join(" - "), 4) ~ " as " ~ name ~ "_" ~ piece) -%}
                {%- do total.update({piece: name ~ "_" ~ piece}) -%}
                {%- do helpers.append(name ~ "_" ~ piece) -%}
            {%- endfor -%}
            {%- set upper = total.to_end if following is not none and following <= 0
                else total.to_peers_end if following is none
                else "case\n    when rolling_peers_after <= " ~ following ~ "\n        then " ~ total.to_peers_end
                    ~ "\n    else " ~ total.to_end ~ "\nend" -%}
            {%- set lower = total.before if preceding is not none and preceding <= 0
                else total.before_peers if preceding is none
                else "case\n    when rolling_peers_before <= " ~ preceding ~ "\n        then " ~ total.before_peers
                    ~ "\n    else " ~ total.before ~ "\nend" -%}
            {%- set peers = upper ~ " - " ~ lower -%}
            {%- set reaches = ([] if following is none or following >= 0 else ["rolling_peers_before >= " ~ -following])
                + ([] if preceding is none or preceding >= 0 else ["rolling_peers_after >= " ~ -preceding]) -%}
            {%- if reaches -%}
                {%- set peers = "case\n    when " ~ reaches | join(" and ") ~ "\n        then "
                    ~ spark_query_catalog._sqc_indented(peers, 8) ~ "\n    else 0\nend" -%}
            {%- endif -%}
            {%- do frame_columns.append(spark_query_catalog._sqc_wrapped_item(
                total.to_end ~ (" - " ~ total.before if total.before else ""), name, 4, 8)) -%}
            {%- do peer_columns.append(spark_query_catalog._sqc_wrapped_item(
                spark_query_catalog._sqc_indented(peers, 4), part.name ~ "_peers_" ~ measure, 4, 8)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set source = "(\n" ~ ("select\n    *,\n" ~ spark_query_catalog._sqc_list_lines(numbers + totals, 4) ~ "\nfrom "
        ~ relation_sql) | indent(4, first=true) ~ "\n) as rolling_totals" -%}
    {%- set source = spark_query_catalog._sqc_exclude_layer(source, frame_columns + peer_columns, "rolling_peers", helpers) -%}

    {%- set out_columns = spark_query_catalog._sqc_rows_out_columns(parts, window, exclude) -%}
    {%- set source = spark_query_catalog._sqc_exclude_layer(source, out_columns, "rolling_out", helpers) -%}
    {%- set outputs = [] -%}
    {%- for part in parts -%}
        {%- do outputs.append(spark_query_catalog._sqc_indented(spark_query_catalog._sqc_subtracted_value(part, window, helpers), 4)
            ~ " as " ~ spark_query_catalog._sqc_quote(part.alias)) -%}
    {%- endfor -%}
    {{- return("select\n    * except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    ),\n"
        ~ spark_query_catalog._sqc_list_lines(outputs, 4) ~ "\nfrom " ~ source) -}}
{% endmacro %}
