{#-
    rolling_select's `exclude` (SQL:2011's frame exclusion, which Spark
    lacks): 'current row', 'group' (the row and its peers, the rows with
    its order keys), 'ties' (its peers but not the row) or 'no others'.

    Each aggregate is what the frame holds less what is excluded from it:
    the frame's sum and count (rolling_select's own forms, linear where
    `auto` takes them), less the sum and count of the excluded rows that
    are in the frame. A row's peers lie all inside a RANGE or GROUPS frame
    or all outside it, so the excluded rows in the frame are the row's peer
    group taken over the same frame (`partition by` the keys and the order
    keys), as Spark's own frame has it for a NULL key too. So sum, count
    and avg of integers and decimals are exact; min, max, distinct counts
    and floating-point sums have no such difference and are a compile error.
-#}

{#- The query: `relation_sql`'s columns and each of `items` over `window`
    with `exclude` applied. -#}
{% macro _sqc_rolling_exclude_sql(relation_sql, relation, items, window, exclude) %}
    {%- set macro_name = "rolling_select" -%}
    {%- if window.empty or (window.frame_kind == "rows" and exclude != "current row") -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "exclude", "'no others' here" ~ (" (a frame that starts after it"
            ~ " ends holds nothing to exclude)" if window.empty else ": over a ROWS frame peers stand in the order"
            ~ " Spark reads them, so only 'current row' is exact (use frame='range' or 'groups' for 'group' and"
            ~ " 'ties')"), exclude) -}}
    {%- endif -%}
    {%- set parts = spark_query_catalog._sqc_exclude_parts(items, window, relation, exclude) -%}
    {%- set frame_aggregates = {} -%}
    {%- for part in parts -%}
        {%- do frame_aggregates.update({part.name ~ "_count": "count(" ~ part.argument ~ ")"}) -%}
        {%- if part.function != "count" -%}
            {%- do frame_aggregates.update({part.name ~ "_sum": "sum(" ~ part.argument ~ ")"}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set frame_items = spark_query_catalog._sqc_aggregates(frame_aggregates, macro_name) -%}
    {%- if window.frame_kind == "groups" -%}
        {%- set source = spark_query_catalog._sqc_rolling_groups_sql(relation_sql, relation, frame_items, window) -%}
    {%- else -%}
        {%- set source = spark_query_catalog._sqc_rolling_select_query(relation_sql, relation, frame_items, window, macro_name) -%}
    {%- endif -%}
    {%- set helpers = frame_aggregates.keys() | list -%}

    {#- Whether the row is in its own frame: known from the bounds over a
        ROWS or GROUPS frame, a RANGE frame without offsets and with no
        order key; else whether its peer group is, taken over the same
        frame (a NULL key's offsets reach its NULL peers). -#}
    {%- set heads = [] -%}
    {%- for key in window.order_keys -%}
        {%- do heads.append(spark_query_catalog._sqc_key_head(key)) -%}
    {%- endfor -%}
    {%- set peers = dict(window, partition_clause="partition by " ~ (window.partition_keys + heads) | join(", ")) -%}
    {%- set offsets = [window.start, window.end] | selectattr("kind", "in", ["offset", "interval"]) | list -%}
    {%- set ranged = window.frame_kind == "range" and window.order_keys and offsets -%}
    {%- set peer_over = spark_query_catalog._sqc_over_sql(peers if ranged else dict(peers, order_keys=[]),
        window.frame_sql if ranged else "", 4) -%}
    {%- set in_frame = "rolling_in_frame" if ranged
        else ((window.start.position or 0) <= 0 and 0 <= (window.end.position or 0)) -%}
    {%- set peer_columns = [] -%}
    {%- if ranged -%}
        {%- do peer_columns.append("count(*)" ~ peer_over ~ " > 0 as rolling_in_frame") -%}
    {%- endif -%}
    {%- if exclude != "current row" and in_frame -%}
        {%- for part in parts -%}
            {%- do peer_columns.append("count(" ~ part.argument ~ ")" ~ peer_over ~ " as " ~ part.name ~ "_peers_count") -%}
            {%- if part.function != "count" -%}
                {%- do peer_columns.append("sum(" ~ part.argument ~ ")" ~ peer_over ~ " as " ~ part.name ~ "_peers_sum") -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if peer_columns -%}
        {%- set source = "select\n    *,\n" ~ spark_query_catalog._sqc_list_lines(peer_columns, 4) ~ "\nfrom (\n"
            ~ source | indent(4, first=true) ~ "\n) as rolling_frames" -%}
        {%- for column in peer_columns -%}
            {%- do helpers.append(column.split(" as ")[-1]) -%}
        {%- endfor -%}
    {%- endif -%}

    {#- What is taken out of each frame, as columns of their own; then each
        aggregate from the frame's count and sum less those. -#}
    {%- set out_columns = [] -%}
    {%- for part in parts -%}
        {%- set excluded = spark_query_catalog._sqc_excluded(part, exclude, in_frame) -%}
        {%- for measure in ["count", "sum"] if excluded[measure] is not none and (measure == "count" or part.function != "count") -%}
            {%- do out_columns.append(spark_query_catalog._sqc_wrapped_item(excluded[measure], part.name ~ "_out_" ~ measure, 4, 4)) -%}
            {%- do helpers.append(part.name ~ "_out_" ~ measure) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if out_columns -%}
        {%- set source = "select\n    *,\n" ~ spark_query_catalog._sqc_list_lines(out_columns, 4) ~ "\nfrom (\n"
            ~ source | indent(4, first=true) ~ "\n) as " ~ ("rolling_peers" if peer_columns else "rolling_frames") -%}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for part in parts -%}
        {%- set counts = part.name ~ "_count" ~ (" - " ~ part.name ~ "_out_count" if out_columns else "") -%}
        {%- if part.function == "count" -%}
            {%- set value = counts -%}
        {%- else -%}
            {%- set total = part.name ~ "_sum" ~ (" - " ~ part.name ~ "_out_sum" if out_columns else "") -%}
            {%- set value = "case\n    when " ~ counts ~ " > 0\n        then "
                ~ spark_query_catalog._sqc_indented(spark_query_catalog._sqc_linear_value_sql(
                    part.function, part.type, total, counts, window), 8) ~ "\nend" -%}
        {%- endif -%}
        {%- do columns.append(spark_query_catalog._sqc_indented(value, 4) ~ " as " ~ spark_query_catalog._sqc_quote(part.alias)) -%}
    {%- endfor -%}
    {{- return("select\n    * except (\n" ~ spark_query_catalog._sqc_list_lines(helpers, 8) ~ "\n    ),\n"
        ~ spark_query_catalog._sqc_list_lines(columns, 4)
        ~ "\nfrom (\n" ~ source | indent(4, first=true) ~ "\n) as rolling_excluded") -}}
{% endmacro %}


{#- Each aggregate of `items`, checked: {name, function, argument, type,
    alias}. -#}
{% macro _sqc_exclude_parts(items, window, relation, exclude) %}
    {%- set parts = [] -%}
    {%- for item in items -%}
        {%- set aggregate = spark_query_catalog._sqc_parse_aggregate(item.sql) -%}
        {%- set argument_type = none -%}
        {%- if aggregate is not none and aggregate.function in ["sum", "avg"] -%}
            {%- set argument_type = spark_query_catalog._sqc_argument_type(aggregate.argument, window.columns, relation) -%}
        {%- endif -%}
        {%- set kind = spark_query_catalog._sqc_type_class(argument_type) -%}
        {%- if aggregate is none or aggregate.function not in ["sum", "count", "avg"]
            or (execute and aggregate.function != "count" and kind not in ["integral", "decimal"])
            or (execute and aggregate.function == "avg" and kind == "decimal"
                and spark_query_catalog._sqc_linear_avg_digits(window, argument_type) is none) -%}
            {{- spark_query_catalog._sqc_fail("rolling_select", "exclude", "'no others' for " ~ item.sql ~ " (a frame's"
                ~ " exclusion is exact for sum, count and avg of integers and of decimals up to 28 digits, and"
                ~ " count of anything; cast a floating-point argument to a decimal)", exclude) -}}
        {%- endif -%}
        {%- do parts.append({"name": "rolling_" ~ loop.index0, "function": aggregate.function,
            "argument": aggregate.argument, "type": argument_type, "alias": item.alias}) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{% endmacro %}


{#- What `exclude` takes out of a part's frame that was in it, as SQL:
    {count, sum}, each none for nothing. `in_frame` is whether the row is in
    its own frame: true, false, or the column that says it. -#}
{% macro _sqc_excluded(part, exclude, in_frame) %}
    {%- if in_frame is sameas false -%}
        {{- return({"count": none, "sum": none}) -}}
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
