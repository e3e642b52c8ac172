{#-
    rolling_select(relation, aggregates, order_by, partition_by=none, frame='rows',
                   preceding='unbounded', following=0, method='auto',
                   exclude='no others')

    A full `select`: every column of `relation` plus one column per aggregate,
    each over the same window (the arguments of rolling). Where rolling returns
    an expression, this returns the query, so that it can add the helper
    columns that the linear form of min and max needs, and drop them again.

    Arguments, their defaults and allowed values: macros/macros.yml (the
    README shows them as this macro's table).

    min and max over a ROWS frame of w rows are linear by van Herk /
    Gil-Werman: rows are numbered and cut into blocks of w; a running value
    within each block from its start and from its end gives any frame of w
    rows as the max (min) of two lookups: where the frame starts, the value
    to the end of its block; where it ends, the value from the start of its
    block. Three sorts of the rows, no more shuffles than the native frame.
    sum, count and avg are rolling's expressions (prefix differences).
    count(distinct ...), which Spark refuses over a frame, is exact and
    linear over ROWS and RANGE frames with both ends bounded
    (_sqc_rolling_distinct.sql: each row counts for the frames where it is
    its value's first occurrence); other frames use Spark's frame over a
    set, as rolling does. approx_count_distinct is that exact count where
    it applies (_sqc_rolling_approx.sql), else Spark's frame. `exclude`
    takes the excluded rows' sum and count out of the frame's, and takes
    min and max over the frame's rows before and after the row's peers
    (_sqc_rolling_exclude.sql).

    Example:
        {{ rolling_select(ref('sales'), {'amount_max_last_1000': 'max(amount)'},
                          'id', partition_by='store_id', preceding=999) }}
-#}
{% macro rolling_select(relation, aggregates, order_by, partition_by=none, frame="rows", preceding="unbounded",
                        following=0, method="auto", exclude="no others") %}
    {{- return(adapter.dispatch("rolling_select", "spark_query_catalog")(
        relation, aggregates, order_by, partition_by, frame, preceding, following, method, exclude
    )) -}}
{% endmacro %}


{% macro default__rolling_select(relation, aggregates, order_by, partition_by, frame, preceding, following, method,
                                 exclude="no others") %}
    {%- set macro_name = "rolling_select" -%}
    {%- set relation_sql = spark_query_catalog._sqc_relation_sql(relation, macro_name) -%}
    {%- set parts = spark_query_catalog._sqc_rolling_select_parts(
        relation, aggregates, order_by, partition_by, frame, preceding, following, method
    ) -%}
    {%- set items, window = parts.aggregates, parts.window -%}
    {#- Inside a microbatch batch, over the batch and the rows its frame
        reaches; then the batch's rows only (_sqc_rolling_batch.sql). -#}
    {%- set halo = spark_query_catalog._sqc_batch_halo(relation, window, macro_name) -%}
    {%- set exclusions = ["no others", "current row", "group", "ties"] -%}
    {%- set exclusion = modules.re.sub("\\s+", " ", exclude | trim | lower) if exclude is string else exclude -%}
    {%- if exclusion not in exclusions -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "exclude", "one of '" ~ exclusions | join("', '") ~ "'", exclude) -}}
    {%- endif -%}
    {%- if exclusion != "no others" -%}
        {%- set query = spark_query_catalog._sqc_rolling_exclude_holistic_sql(
            halo.sql if halo is not none else relation_sql, relation, items, window, exclusion
        ) -%}
    {%- elif window.frame_kind == "groups" and not spark_query_catalog._sqc_is_plain_window(window) -%}
        {#- No halo: inside a batch, a GROUPS frame is a compile error above. -#}
        {%- set query = spark_query_catalog._sqc_rolling_groups_sql(relation_sql, relation, items, window) -%}
    {%- else -%}
        {%- set query = spark_query_catalog._sqc_rolling_select_query(
            halo.sql if halo is not none else relation_sql, relation, items, window, macro_name
        ) -%}
    {%- endif -%}
    {%- if halo is not none -%}
        {%- set query = "select rolling_batch.*\nfrom (\n" ~ query | indent(4, first=true)
            ~ "\n) as rolling_batch\nwhere\n    " ~ halo.batch -%}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_fit_frames(query)) -}}
{% endmacro %}


{#- A GROUPS frame (SQL:2011, as PostgreSQL and DuckDB have it; Spark 4.3
    has none): its offsets count peer groups, the rows with equal order
    keys. Each row's group is numbered by dense_rank() in the window's
    order (NULLs a group of their own, as peers), and the frame is the
    RANGE frame of the same offsets over that number: the rows whose group
    lies that many groups before or after the row's. Then the number is
    dropped. -#}
{% macro _sqc_rolling_groups_sql(relation_sql, relation, items, window) %}
    {%- set grouped = spark_query_catalog._sqc_numbered_groups(relation_sql, window) -%}
    {%- set query = spark_query_catalog._sqc_rolling_select_query(
        grouped.sql, relation, items, grouped.window, "rolling_select"
    ) -%}
    {{- return("select * except (rolling_group)\nfrom (\n" ~ query | indent(4, first=true) ~ "\n) as rolling_grouped") -}}
{% endmacro %}


{#- `relation_sql` with each row's peer group numbered (`rolling_group`),
    and the RANGE window over that number that is `window`'s GROUPS frame:
    {sql (a subquery with its alias), window}. With `numbering`
    'row_number', each row is numbered (`rolling_row`) and the window is
    `window`'s ROWS frame, whatever order Spark reads peers in. The frame
    holds at least as many rows as its offsets span (`min_rows`), so `auto`
    picks forms as for a ROWS frame of that width. -#}
{% macro _sqc_numbered_groups(relation_sql, window, numbering="dense_rank") %}
    {%- set column = "rolling_group" if numbering == "dense_rank" else "rolling_row" -%}
    {%- set numbered = "select\n    *,\n    " ~ numbering ~ "()" ~ spark_query_catalog._sqc_over_sql(window, "", 4)
        ~ " as " ~ column ~ "\nfrom " ~ relation_sql -%}
    {{- return({
        "sql": "(\n" ~ numbered | indent(4, first=true) ~ "\n) as " ~ column ~ "s",
        "window": dict(window,
            order_keys=[column],
            frame_kind="range",
            frame_sql="range between " ~ window.start.sql ~ " and " ~ window.end.sql,
            key={"kind": "integral", "type": "int", "scale": 0, "ntz": false, "sql": column},
            min_rows=spark_query_catalog._sqc_rows_width(dict(window, frame_kind="rows"))
        )
    }) -}}
{% endmacro %}


{#- rolling_select's checked arguments: {aggregates (parsed), window},
    the column types read from `relation`. -#}
{% macro _sqc_rolling_select_parts(relation, aggregates, order_by, partition_by, frame, preceding, following, method) %}
    {%- set macro_name = "rolling_select" -%}
    {%- if aggregates is not mapping or aggregates | length == 0 -%}
        {{- spark_query_catalog._sqc_fail(macro_name, "aggregates", "a non-empty dict of output column to aggregate", aggregates) -}}
    {%- endif -%}
    {%- set items = spark_query_catalog._sqc_aggregates(aggregates, macro_name) -%}
    {%- set window = spark_query_catalog._sqc_rolling_window(
        macro_name, items[0].sql, order_by, partition_by, frame, preceding, following, relation, method
    ) -%}
    {{- return({"aggregates": items, "window": window}) -}}
{% endmacro %}


{#- rolling_select's query over `source_sql` (a name or subquery whose
    columns have the types `relation`'s have): for a query that names its
    source in a CTE, and knows the types of its columns from a relation. -#}
{% macro _sqc_rolling_select_from(source_sql, relation, aggregates, order_by, partition_by, frame, preceding, following, method) %}
    {%- set parts = spark_query_catalog._sqc_rolling_select_parts(
        relation, aggregates, order_by, partition_by, frame, preceding, following, method
    ) -%}
    {{- return(spark_query_catalog._sqc_rolling_select_query(source_sql, relation, parts.aggregates, parts.window, "rolling_select")) -}}
{% endmacro %}


{#- rolling_select's query over `relation_sql`: its columns, then each
    aggregate's, in the order of `items` (`in_order`, for a caller's model)
    or with the exact distinct counts first (for helper columns). -#}
{% macro _sqc_rolling_select_query(relation_sql, relation, items, window, macro_name, in_order=true) %}
    {#- Percentiles over a wide ROWS frame take the block form, over the
        query of the other aggregates (_sqc_rolling_holistic_blocks.sql). -#}
    {%- set blocked = [] -%}
    {%- for item in items -%}
        {%- set holistic = spark_query_catalog._sqc_parse_holistic(item.sql, macro_name, "aggregates") -%}
        {%- if holistic is not none and spark_query_catalog._sqc_holistic_blocks_fit(window, holistic, relation) -%}
            {%- do blocked.append(item) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if blocked -%}
        {%- set others = items | reject("in", blocked) | list -%}
        {%- set source = relation_sql if not others else "(\n" ~ spark_query_catalog._sqc_rolling_select_query(
            relation_sql, relation, others, window, macro_name, in_order=false) | indent(4, first=true) ~ "\n) as rolling_others" -%}
        {%- set query = spark_query_catalog._sqc_holistic_blocks_sql(source, window, blocked) -%}
        {{- return(spark_query_catalog._sqc_items_in_order(query, items, others + blocked) if in_order else query) -}}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- set extremes = [] -%}
    {%- set distincts = [] -%}
    {%- for item in items -%}
        {%- set alias = spark_query_catalog._sqc_quote(item.alias) -%}
        {%- set distinct = spark_query_catalog._sqc_parse_distinct_count(item.sql) -%}
        {%- set aggregate = spark_query_catalog._sqc_parse_aggregate(item.sql) -%}
        {%- set approx = spark_query_catalog._sqc_parse_approx_distinct(item.sql) -%}
        {#- approx_count_distinct is the exact count where that is linear:
            within any error bound, and faster (measured); else Spark's frame. -#}
        {%- if (distinct is not none and spark_query_catalog._sqc_distinct_is_linear(window, macro_name, helpers=true))
            or (approx is not none and spark_query_catalog._sqc_approx_distinct_is_exact(window, approx, macro_name, helpers=true)) -%}
            {#- Counted first, below: the column is there by its alias. -#}
            {%- do distincts.append({"arguments": distinct.arguments if distinct is not none else [approx.argument], "alias": alias}) -%}
            {%- do columns.append({"alias": alias, "sql": alias}) -%}
        {%- elif distinct is not none -%}
            {%- do columns.append({"alias": alias, "sql": spark_query_catalog._sqc_native_distinct_sql(distinct, window, 4)}) -%}
        {%- else -%}
            {%- set plan = spark_query_catalog._sqc_rolling_plan(window, aggregate, relation, macro_name, helpers=true) -%}
            {%- if plan.linear and aggregate.function in ["min", "max"] -%}
                {%- do extremes.append({"aggregate": aggregate, "alias": alias, "index": loop.index0}) -%}
                {%- do columns.append({"alias": alias, "sql": none}) -%}
            {%- elif plan.linear -%}
                {%- do columns.append({"alias": alias, "sql": spark_query_catalog._sqc_linear_sum_sql(window, aggregate, plan, 4)}) -%}
            {%- else -%}
                {%- do columns.append({"alias": alias, "sql": spark_query_catalog._sqc_native_call_sql(
                    item.sql, window, 4, macro_name, "aggregates", relation)}) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set counted = distincts | map(attribute="alias") | list -%}
    {%- if distincts -%}
        {%- set distinct_sql = spark_query_catalog._sqc_linear_distinct_sql(relation_sql, window, distincts) -%}
        {%- if counted | length == columns | length -%}
            {{- return(distinct_sql) -}}
        {%- endif -%}
        {%- set relation_sql = "(\n" ~ distinct_sql | indent(4, first=true) ~ "\n) as rolling_distinct" -%}
    {%- endif -%}
    {#- The distinct counts come with `*`: a simple column after a computed
        one is what sqlfluff's ST06 refuses. -#}
    {%- set computed = columns | rejectattr("alias", "in", counted) | list -%}
    {%- if extremes | length == 0 -%}
        {%- set select = ["*"] -%}
        {%- for column in computed -%}
            {%- do select.append(spark_query_catalog._sqc_select_item(column.sql, column.alias)) -%}
        {%- endfor -%}
        {%- set query = "select\n" ~ spark_query_catalog._sqc_list_lines(select, 4) ~ "\nfrom " ~ relation_sql -%}
    {%- else -%}
        {%- set query = spark_query_catalog._sqc_block_extremes_sql(relation_sql, window, computed, extremes) -%}
    {%- endif -%}
    {%- if not in_order -%}
        {{- return(query) -}}
    {%- endif -%}
    {{- return(spark_query_catalog._sqc_in_order(query, columns | map(attribute="alias") | list,
        counted + computed | map(attribute="alias") | list)) -}}
{% endmacro %}
