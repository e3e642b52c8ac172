{#-
    rolling_select's `exclude` (SQL:2011's frame exclusion, which Spark
    lacks): 'current row', 'group' (the row and its peers, the rows with
    its order keys), 'ties' (its peers but not the row) or 'no others'.

    sum, count and avg are what the frame holds less what is excluded from
    it: the frame's sum and count (rolling_select's own forms, linear where
    `auto` takes them), less the sum and count of the excluded rows that
    are in the frame. A row's peers lie all inside a RANGE or GROUPS frame
    or all outside it, so the excluded rows in the frame are the row's peer
    group taken over the same frame (`partition by` the keys and the order
    keys), as Spark's own frame has it for a NULL key too. So sum, count
    and avg of integers and decimals are exact. Floating-point sums would
    cancel digits, and min and max have no difference: they combine the
    frame's parts (_sqc_rolling_exclude_sided.sql, _extremes.sql);
    distinct counts compare two counts of the row's value (_out.sql).
    'group' and 'ties' over a ROWS frame, whose edges cut through peer
    groups, have a form of their own (_sqc_rolling_exclude_rows.sql).
-#}

{#- The query: `relation_sql`'s columns and each of `items` over `window`
    with `exclude` applied. -#}
{% macro _sqc_rolling_exclude_sql(relation_sql, relation, items, window, exclude) %}
    {%- set macro_name = "rolling_select" -%}
    {%- if window.empty -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "exclude", "'no others' here (a frame that starts after it"
            ~ " ends holds nothing to exclude)", exclude) -}}
    {%- endif -%}
    {%- set parts = spark_query_catalog._sqc_exclude_parts(items, window, relation, exclude) -%}
    {%- if window.frame_kind == "rows" and exclude != "current row" -%}
        {{- return(spark_query_catalog._sqc_rolling_exclude_rows_sql(relation_sql, relation, parts, window, exclude)) -}}
    {%- endif -%}
    {%- set sums = parts | rejectattr("function", "in", ["min", "max"]) | rejectattr("sided") | list -%}
    {%- set sided = parts | selectattr("sided") | list -%}
    {%- set distincts = parts | selectattr("arguments") | list -%}
    {%- set extremes = parts | selectattr("function", "in", ["min", "max"]) | list -%}
    {%- set rows_frame = window.frame_kind == "rows" -%}
    {%- set helpers = [] -%}
    {#- A GROUPS frame is the RANGE frame of its offsets over the rows'
        numbered peer groups, a key that is never NULL; a ROWS frame with a
        distinct count over the numbered rows. -#}
    {%- set grouped = window.frame_kind == "groups" or (rows_frame and distincts) -%}
    {%- if grouped -%}
        {%- set numbered = spark_query_catalog._sqc_numbered_groups(relation_sql, window,
            "row_number" if rows_frame else "dense_rank") -%}
        {%- set relation_sql, window = numbered.sql, numbered.window -%}
        {%- do helpers.append(window.key.sql) -%}
    {%- endif -%}

    {#- The frame's sums and counts; for min and max, the frame's rows
        before the row's peers and after them, each a frame of its own. -#}
    {%- set steps = [] -%}
    {%- set frame_aggregates = {} -%}
    {%- for part in sums -%}
        {%- for measure in spark_query_catalog._sqc_measures(part) -%}
            {%- do frame_aggregates.update({part.name ~ "_" ~ measure: measure ~ "(" ~ part.argument ~ ")"}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if frame_aggregates -%}
        {%- do steps.append({"name": "rolling_frames", "window": window, "aggregates": frame_aggregates}) -%}
    {%- endif -%}
    {%- for part in distincts -%}
        {%- do steps.append(spark_query_catalog._sqc_exclude_copies_step(part, window)) -%}
    {%- endfor -%}
    {#- A side that is Spark's frame is a column beside the peers' (below);
        one with a linear form (van Herk blocks) a query of its own. -#}
    {%- set sides = spark_query_catalog._sqc_exclude_sides(window) if extremes or sided else {} -%}
    {%- set side_columns = [] -%}
    {%- for side, side_window in sides.items() if side_window is not none -%}
        {%- set side_aggregates = {} -%}
        {%- for part in extremes -%}
            {%- set call = part.function ~ "(" ~ part.argument ~ ")" -%}
            {%- if spark_query_catalog._sqc_rolling_plan(side_window, part, relation, macro_name, helpers=true).linear -%}
                {%- do side_aggregates.update({part.name ~ "_" ~ side: call}) -%}
            {%- else -%}
                {%- set over = spark_query_catalog._sqc_side_over(side_window) -%}
                {%- do side_columns.append(call ~ spark_query_catalog._sqc_over_sql(over[0], over[1], 4) ~ " as " ~ part.name ~ "_" ~ side) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if side_aggregates -%}
            {%- do steps.append({"name": "rolling_" ~ side, "window": side_window, "aggregates": side_aggregates}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set source = namespace(sql=relation_sql) -%}
    {%- for step in steps -%}
        {%- set query = spark_query_catalog._sqc_rolling_select_query(source.sql, relation,
            spark_query_catalog._sqc_aggregates(step.aggregates, macro_name), step.window, macro_name, in_order=false) -%}
        {%- set source.sql = "(\n" ~ query | indent(4, first=true) ~ "\n) as " ~ step.name -%}
        {%- do helpers.extend(step.aggregates.keys()) -%}
    {%- endfor -%}

    {#- Whether the row is in its own frame: known from the bounds over a
        ROWS or GROUPS frame, a RANGE frame without offsets and with no
        order key; else whether its peer group is, taken over the same
        frame (a NULL key's offsets reach its NULL peers). -#}
    {%- set heads = [] -%}
    {%- for key in window.order_keys -%}
        {%- do heads.append(spark_query_catalog._sqc_key_head(key)) -%}
    {%- endfor -%}
    {%- set peer_keys = window.partition_keys + heads -%}
    {%- set peers = dict(window, partition_clause="partition by " ~ peer_keys | join(", ") if peer_keys else "") -%}
    {%- set offsets = [window.start, window.end] | selectattr("kind", "in", ["offset", "interval"]) | list -%}
    {%- set ranged = window.frame_kind == "range" and window.order_keys and offsets and not grouped -%}
    {%- set group_over = spark_query_catalog._sqc_over_sql(dict(peers, order_keys=[]), "", 4) -%}
    {%- set peer_over = spark_query_catalog._sqc_over_sql(peers, window.frame_sql, 4) if ranged else group_over -%}
    {%- set in_frame = "rolling_in_frame" if ranged else spark_query_catalog._sqc_bounds_hold_row(window) -%}
    {%- set peer_columns = side_columns -%}
    {%- if ranged -%}
        {%- do peer_columns.append("count(*)" ~ peer_over ~ " > 0 as rolling_in_frame") -%}
    {%- endif -%}
    {%- for part in distincts if in_frame is not sameas false and exclude != "current row" -%}
        {%- do peer_columns.append(spark_query_catalog._sqc_exclude_peer_copies(part, peer_keys)) -%}
    {%- endfor -%}
    {%- if exclude != "current row" and in_frame -%}
        {%- for part in sums if not part.arguments -%}
            {%- for measure in spark_query_catalog._sqc_measures(part) -%}
                {%- do peer_columns.append(measure ~ "(" ~ part.argument ~ ")" ~ peer_over ~ " as " ~ part.name ~ "_peers_"
                    ~ measure) -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endif -%}
    {#- min and max less the row alone: the peers' extreme, or the next one
        in their order where the row holds it. -#}
    {%- set others = extremes and exclude == "current row" and not rows_frame and in_frame is not sameas false -%}
    {%- if others -%}
        {%- for part in extremes -%}
            {%- set ranked = dict(peers, order_keys=[part.argument ~ (" desc" if part.function == "max" else "") ~ " nulls last"]) -%}
            {%- do peer_columns.append(part.function ~ "(" ~ part.argument ~ ")" ~ group_over ~ " as " ~ part.name ~ "_peers_top") -%}
            {%- do peer_columns.append("nth_value(" ~ part.argument ~ ", 2)" ~ spark_query_catalog._sqc_over_sql(ranked,
                "rows between unbounded preceding and unbounded following", 4) ~ " as " ~ part.name ~ "_peers_next") -%}
        {%- endfor -%}
    {%- endif -%}
    {#- A NULL key's RANGE frame is its NULL peers, and the other rows where
        an unbounded end reaches them. -#}
    {%- set null_key = window.key.sql if window.frame_kind == "range" and window.order_keys and not grouped else none -%}
    {%- set nulls_first = null_key is not none and spark_query_catalog._sqc_nulls_first(window.order_keys[0]) -%}
    {%- set outside = null_key is not none and (extremes or sided) and (
        (window.start.kind == "unbounded" and not nulls_first) or (window.end.kind == "unbounded" and nulls_first)) -%}
    {%- if outside -%}
        {%- for part in extremes -%}
            {%- do peer_columns.append(part.function ~ "(" ~ part.argument ~ ") filter (where " ~ null_key ~ " is not null)"
                ~ spark_query_catalog._sqc_over_sql(dict(window, order_keys=[]), "", 4) ~ " as " ~ part.name ~ "_outside") -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set own_peers = exclude == "current row" and not rows_frame and in_frame is not sameas false -%}
    {%- set source.sql = spark_query_catalog._sqc_sided_peer_rows(source.sql, sided, peers) if own_peers and sided else source.sql -%}
    {%- for part in sided -%}
        {%- do helpers.append(part.name ~ "_peer_row") if own_peers else none -%}
        {%- do peer_columns.extend(spark_query_catalog._sqc_exclude_sided_columns(part, window, sides, peers, own_peers, outside, null_key, 4)) -%}
    {%- endfor -%}
    {%- set source.sql = spark_query_catalog._sqc_exclude_layer(source.sql, peer_columns, "rolling_peers", helpers) -%}

    {#- What is taken out of each frame's sum and count, as columns of their
        own; then each aggregate from the frame's count and sum less those. -#}
    {%- set out_columns = [] -%}
    {%- for part in sums -%}
        {%- set excluded = spark_query_catalog._sqc_excluded(part, exclude, in_frame, peer_keys) -%}
        {%- for measure in spark_query_catalog._sqc_measures(part) if excluded[measure] is not none -%}
            {%- do out_columns.append(spark_query_catalog._sqc_wrapped_item(excluded[measure], part.name ~ "_out_" ~ measure, 4, 4)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- for part in sided -%}
        {%- do out_columns.extend(spark_query_catalog._sqc_sided_kept(part, exclude, sides, in_frame, own_peers, null_key, outside)) -%}
    {%- endfor -%}
    {%- if others -%}
        {%- for part in extremes -%}
            {%- set others_sql = "if(" ~ part.argument ~ " <=> " ~ part.name ~ "_peers_top, " ~ part.name ~ "_peers_next, "
                ~ part.name ~ "_peers_top)" -%}
            {%- do out_columns.append(spark_query_catalog._sqc_wrapped_item(others_sql if in_frame is sameas true
                else "if(" ~ in_frame ~ ", " ~ others_sql ~ ", null)", part.name ~ "_others", 4, 4)) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set source.sql = spark_query_catalog._sqc_exclude_layer(source.sql, out_columns, "rolling_out", helpers) -%}
    {%- set columns = [] -%}
    {%- for part in parts -%}
        {%- set alias = spark_query_catalog._sqc_quote(part.alias) -%}
        {%- if part.sided -%}
            {%- do columns.append(spark_query_catalog._sqc_indented(spark_query_catalog._sqc_sided_value(part), 4)
                ~ " as " ~ alias) -%}
        {%- elif part.function in ["min", "max"] -%}
            {%- set value = spark_query_catalog._sqc_excluded_extreme(part, exclude, in_frame, sides, others, null_key, outside) -%}
            {%- do columns.append((spark_query_catalog._sqc_indented(value, 4) if value.startswith("case")
                else spark_query_catalog._sqc_wrapped(value, 4, (" as " ~ alias ~ ",") | length)) ~ " as " ~ alias) -%}
        {%- else -%}
            {%- do columns.append(spark_query_catalog._sqc_indented(spark_query_catalog._sqc_subtracted_value(part, window,
                helpers), 4) ~ " as " ~ alias) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return("select\n    * except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    ),\n"
        ~ spark_query_catalog._sqc_list_lines(columns, 4) ~ "\nfrom " ~ source.sql) -}}
{% endmacro %}


{#- `source_sql` with `columns` added, as a subquery `alias` (the columns
    only renamed first: ST06); each name joins `helpers`. No columns: as is. -#}
{% macro _sqc_exclude_layer(source_sql, columns, alias, helpers) %}
    {%- if not columns -%}
        {{- return(source_sql) -}}
    {%- endif -%}
    {%- set renamed = [] -%}
    {%- for column in columns -%}
        {%- do renamed.append(column) if modules.re.match("^\\w+ as \\w+$", column) else none -%}
        {%- do helpers.append(column.split(" as ")[-1]) -%}
    {%- endfor -%}
    {%- set columns = renamed + columns | reject("in", renamed) | list -%}
    {{- return("(\n" ~ ("select\n    *,\n" ~ spark_query_catalog._sqc_list_lines(columns, 4) ~ "\nfrom " ~ source_sql)
        | indent(4, first=true) ~ "\n) as " ~ alias) -}}
{% endmacro %}


{#- Each aggregate of `items`, checked: {name, function, argument, type,
    alias, sided}; approx_count_distinct is the exact distinct count. -#}
{% macro _sqc_exclude_parts(items, window, relation, exclude) %}
    {%- set parts = [] -%}
    {%- for item in items -%}
        {%- set distinct = spark_query_catalog._sqc_parse_distinct_count(item.sql) -%}
        {%- set approx = spark_query_catalog._sqc_parse_approx_distinct(item.sql) if distinct is none else none -%}
        {%- set distinct = {"arguments": [approx.argument]} if approx is not none else distinct -%}
        {%- set aggregate = spark_query_catalog._sqc_parse_aggregate(item.sql) if distinct is none
            else {"function": "count", "argument": "distinct " ~ distinct.arguments | join(", ")} -%}
        {%- set argument_type = none -%}
        {%- if aggregate is not none and aggregate.function in ["sum", "avg"] -%}
            {%- set argument_type = spark_query_catalog._sqc_argument_type(aggregate.argument, window.columns, relation) -%}
        {%- endif -%}
        {%- set kind = spark_query_catalog._sqc_type_class(argument_type) -%}
        {%- set sided = execute and aggregate is not none and aggregate.function in ["sum", "avg"] and kind == "floating" -%}
        {%- if aggregate is none
            or (execute and aggregate.function in ["sum", "avg"] and kind not in ["integral", "decimal", "floating"])
            or (execute and aggregate.function == "avg" and kind == "decimal"
                and spark_query_catalog._sqc_linear_avg_digits(window, argument_type) is none) -%}
            {{- spark_query_catalog._sqc_fail("rolling_select", "exclude", "'no others' for " ~ item.sql ~ " (a frame's"
                ~ " exclusion takes min and max, count, count(distinct), approx_count_distinct, median, percentile_cont,"
                ~ " percentile_disc, mode, and sum and avg of numbers, decimals up to 28 digits)", exclude) -}}
        {%- endif -%}
        {#- min and max, and floating-point sums, take the frame's rows
            before and after the row's peers, which a RANGE key's smallest
            step tells apart. -#}
        {%- set reason = spark_query_catalog._sqc_range_linear_reason(window)
            if execute and (aggregate.function in ["min", "max"] or sided) and window.frame_kind == "range" and window.order_keys
            else none -%}
        {%- if reason is not none -%}
            {{- spark_query_catalog._sqc_fail("rolling_select", "exclude", "'no others' for " ~ item.sql
                ~ " over this RANGE frame (" ~ reason ~ ")", exclude) -}}
        {%- endif -%}
        {%- do parts.append({"name": "rolling_" ~ loop.index0, "function": aggregate.function,
            "argument": aggregate.argument, "arguments": distinct.arguments if distinct else none,
            "type": argument_type, "alias": item.alias, "sided": sided}) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{% endmacro %}
